/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KARPENTER_WELLKNOWN_H
#define KARPENTER_WELLKNOWN_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

KP_END_DECLS

#endif /* KARPENTER_WELLKNOWN_H */
