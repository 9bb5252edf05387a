/* cline_store: Cline's own settings store, as the Cline CLI (npm `cline`,
 * 3.0.65) and the VS Code extension since it moved to files keep it, and
 * where Cline looks for it. Facts from Cline's code (github.com/cline/cline,
 * sdk/packages/...):
 *
 * - settings/providers.json (shared/src/storage/paths.ts:393-399: the file
 *   $CLINE_PROVIDER_SETTINGS_PATH, else DATA/settings/providers.json; DATA
 *   is $CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data, :130-164):
 *   {"version":1, "lastUsedProvider":ID, "modes":{}, "providers":{ID:
 *   {"settings":{"provider","apiKey","model","baseUrl","timeout"(ms),
 *   "maxTokens","headers",...}, "updatedAt", "tokenSource"}}}
 *   (core/src/types/provider-settings.ts:36-67, core/src/services/llms/
 *   provider-settings.ts:141-177). Cline uses the entry of lastUsedProvider
 *   (core/src/services/storage/provider-settings-manager.ts:236-260); the
 *   key is settings.apiKey, else auth.apiKey (core/src/auth/
 *   provider-auth-registry.ts:363-378), else $OPENAI_API_KEY for
 *   openai-compatible (llms/src/providers/builtins.ts:760-771); the id
 *   "openai" means "openai-compatible" (llms/src/providers/ids.ts:82-86).
 * - The older pair DATA/globalState.json + DATA/secrets.json, which Cline
 *   migrates into providers.json on its next start (core/src/services/
 *   storage/provider-settings-legacy-migration.ts:282-298, 498-714,
 *   871-988): the mode "act" unless "mode" is "plan"; the provider
 *   {act,plan}ModeApiProvider ("openai" for OpenAI Compatible); the model
 *   {act,plan}ModeOpenAiModelId, else {act,plan}ModeApiModelId;
 *   openAiBaseUrl; requestTimeoutMs (ms, as settings.timeout); the key
 *   openAiApiKey of secrets.json (migrated by cline 3.0.65 into exactly
 *   those settings: tests/data/record/cline/).
 * - The VS Code extension keeps the same files in the same data directory
 *   (apps/vscode/src/shared/storage/storage-context.ts:82-100); older
 *   extensions kept them in VS Code's own state database and the key in
 *   the OS keychain (apps/vscode/src/hosts/vscode/
 *   vscode-to-file-migration.ts:1-33), which cannot be read from here. */
#ifndef TT_RECORD_CLINE_STORE_H
#define TT_RECORD_CLINE_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "cline_settings.h"
#include "jsonc.h"

/* The form of a parsed settings document: providers.json (a "providers"
 * object), a legacy globalState.json (a mode's provider, openAiBaseUrl or
 * requestTimeoutMs), a legacy secrets.json (openAiApiKey and nothing of
 * globalState), or the VS Code settings.json form. *secrets is set for the
 * secrets file (then the form is CLINE_FORM_LEGACY). */
enum cline_form cline_store_form(const struct jsonc_doc *doc, bool *secrets);

/* Fills cs from a providers.json document: the entry of lastUsedProvider
 * (the only entry, or the openai-compatible one, when it is not set).
 * Returns a cline_err; err names the file, line and setting. */
int cline_store_read_providers(struct cline_settings *cs,
                               const struct jsonc_doc *doc, const char *name,
                               char *err, size_t errlen);

/* Fills cs from a legacy globalState.json document (no key: it lives in
 * secrets.json). */
int cline_store_read_legacy(struct cline_settings *cs,
                            const struct jsonc_doc *doc, const char *name,
                            char *err, size_t errlen);

/* The key of a legacy secrets.json document (openAiApiKey), copied into
 * *key (NULL when absent). Returns a cline_err. */
int cline_store_read_secrets(const struct jsonc_doc *doc, const char *name,
                             char **key, char *err, size_t errlen);

/* The settings file in the Cline data directory dir: settings/
 * providers.json, else globalState.json (legacy). Returns true with the
 * path in path when one exists. */
bool cline_store_find_in(const char *dir, char *path, size_t len);

#endif
