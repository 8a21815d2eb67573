/*
 * libkarpenter: umbrella header. Includes every public core module header;
 * each of them is self-contained and may also be included on its own.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_KARPENTER_H
#define KARPENTER_KARPENTER_H

#include <karpenter/common.h>
#include <karpenter/version.h>
#include <karpenter/quantity.h>
#include <karpenter/resources.h>
#include <karpenter/labels.h>
#include <karpenter/taints.h>
#include <karpenter/wellknown.h>
#include <karpenter/requirements.h>
#include <karpenter/duration.h>
#include <karpenter/timestamp.h>
#include <karpenter/cron.h>
#include <karpenter/objects.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/codec.h>
#include <karpenter/emitter.h>
#include <karpenter/convert.h>
#include <karpenter/validation.h>
#include <karpenter/cloudprovider.h>
#include <karpenter/scheduling.h>
#include <karpenter/hash.h>
#include <karpenter/builder.h>
#include <karpenter/lifecycle.h>
#include <karpenter/disruption.h>

#endif /* KARPENTER_KARPENTER_H */
