/*
 * libkarpenter private: an object's member through the emitter
 * (members.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "members.h"

int kp__emit_member_string(kp_emitter *em, const char *key, const char *value)
{
	kp_emitter_key(em, key);
	return kp_emitter_string(em, value);
}

int kp__emit_member_number(kp_emitter *em, const char *key, double value)
{
	kp_emitter_key(em, key);
	return kp_emitter_number(em, value);
}

int kp__emit_member_bool(kp_emitter *em, const char *key, int value)
{
	kp_emitter_key(em, key);
	return kp_emitter_bool(em, value != 0);
}
