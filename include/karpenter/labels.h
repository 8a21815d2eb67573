/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KARPENTER_LABELS_H
#define KARPENTER_LABELS_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

KP_END_DECLS

#endif /* KARPENTER_LABELS_H */
