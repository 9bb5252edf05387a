/* dataset: one entry of a dataset people already have, turned into a
 * single-turn workload item: a ShareGPT conversation
 * ({"conversations":[{"from":"human","value":…},…]}) or an OpenAI chat
 * log line ({"messages":[…]}). */
#ifndef TT_RECORD_DATASET_H
#define TT_RECORD_DATASET_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "workload.h"

/* The class every item of a format goes to (a line's own "class" aside). */
#define DATASET_CLASS_SHAREGPT "sharegpt"
#define DATASET_CLASS_CHAT "chat"

/* A ShareGPT entry: the system turns before the first human turn and that
 * turn ("human" or "user"), as a prompt (or messages when there are system
 * turns); max_tokens the characters / 4 (at least 1) of the assistant
 * turn after it, -1 without one. Takes what it keeps out of entry. Returns
 * NULL with *it filled, NULL with *skip set (no human turn, or an empty
 * one: nothing to send), or the reason the entry is malformed ("turn 3:
 * \"value\" must be a string"). */
const char *dataset_sharegpt_item(cJSON *entry, struct workload_item *it,
                                  bool *skip);

/* An OpenAI chat entry: its messages up to the last "user" one (each an
 * object with a role string and a content string, array of parts or
 * null); max_tokens from the assistant message after it, as for ShareGPT.
 * Returns as dataset_sharegpt_item (skip: no user message). */
const char *dataset_chat_item(cJSON *entry, struct workload_item *it,
                              bool *skip);

/* A dataset entry (ShareGPT or OpenAI chat, sharegpt telling which) as a
 * session (workload_session.h): every turn from the first user one, the
 * file's assistant turns as the recorded replies. Takes what it keeps out
 * of entry. Returns NULL with it->session set, NULL with *skip (no user
 * turn, or a conversation that is not one: two assistant turns in a
 * row), or the reason the entry is malformed (as the single-turn
 * readers). */
const char *dataset_session_item(cJSON *entry, bool sharegpt,
                                 struct workload_item *it, bool *skip);

/* Characters of a message content: a string, or the "text" of its parts. */
int64_t dataset_content_chars(const cJSON *content);

#endif
