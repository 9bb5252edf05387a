/* base64_test: the encoder against RFC 4648's vectors, and the decoder
 * back through whole groups; a character outside the alphabet (or the
 * text's end) stops the decoder. */
#include <stdint.h>
#include <string.h>

#include "base64.h"
#include "buf.h"
#include "check.h"

int main(void)
{
    /* RFC 4648, section 10 */
    static const char *const plain[] = {"",     "f",     "fo",    "foo",
                                        "foob", "fooba", "foobar"};
    static const char *const coded[] = {
        "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    uint8_t out[6];
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        struct buf b;
        buf_init(&b, 0);
        CHECK(base64_put(&b, (const uint8_t *)plain[i], strlen(plain[i])) ==
              BUF_OK);
        CHECK_MSG(b.len == strlen(coded[i]) &&
                      memcmp(b.data ? b.data : "", coded[i], b.len) == 0,
                  "base64 of '%s'", plain[i]);
        buf_free(&b);
    }
    CHECK(base64_decode_groups("Zm9vYmFy", 2, out) &&
          memcmp(out, "foobar", 6) == 0);
    CHECK(base64_decode_groups("+/+/", 1, out) && out[0] == 0xfb &&
          out[1] == 0xff && out[2] == 0xbf);
    CHECK(!base64_decode_groups("Zm9v", 2, out)); /* the end of the text */
    CHECK(!base64_decode_groups("Zm9=", 1, out)); /* padding: not whole */
    CHECK(!base64_decode_groups("Zm-v", 1, out)); /* base64url's '-' */
    return CHECK_DONE();
}
