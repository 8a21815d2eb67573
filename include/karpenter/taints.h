/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KARPENTER_TAINTS_H
#define KARPENTER_TAINTS_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

KP_END_DECLS

#endif /* KARPENTER_TAINTS_H */
