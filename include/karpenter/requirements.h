/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KARPENTER_REQUIREMENTS_H
#define KARPENTER_REQUIREMENTS_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

KP_END_DECLS

#endif /* KARPENTER_REQUIREMENTS_H */
