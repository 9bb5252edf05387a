/* captured_body_test: a captured body's model replaced in place, every
 * other byte kept, as data. */
#include <stdlib.h>
#include <string.h>

#include "captured_body.h"
#include "check.h"

int main(void)
{
    static const struct {
        const char *in, *model, *want; /* want NULL: refused */
    } cases[] = {
        {"{\"model\":\"a\",\"x\":1}", "b", "{\"model\":\"b\",\"x\":1}"},
        {"{\"model\": \"a\", \"stream\": true}", "gpt-4o",
         "{\"model\": \"gpt-4o\", \"stream\": true}"},
        /* a nested "model" and one in a string are not the top level's */
        {"{\"m\":{\"model\":\"n\"},\"t\":\"\\\"model\\\":\\\"q\\\"\","
         "\"model\" : \"a\\\"b\"}",
         "c",
         "{\"m\":{\"model\":\"n\"},\"t\":\"\\\"model\\\":\\\"q\\\"\","
         "\"model\" : \"c\"}"},
        /* the new name is escaped */
        {"{\"model\":\"a\"}", "x\"y", "{\"model\":\"x\\\"y\"}"},
        /* no model: put first */
        {"{\"messages\":[]}", "m", "{\"model\":\"m\",\"messages\":[]}"},
        {" { } ", "m", " {\"model\":\"m\" } "},
        /* spacing and numbers as they were */
        {"{\"temperature\":1e0,\n \"model\":\"a\"}", "b",
         "{\"temperature\":1e0,\n \"model\":\"b\"}"},
        {"[1]", "m", NULL},
        {"", "m", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = 0;
        char *got = captured_body_with_model(cases[i].in, strlen(cases[i].in),
                                             cases[i].model, &n);
        if (!cases[i].want)
            CHECK_MSG(got == NULL, "case %zu: %s", i, got);
        else
            CHECK_MSG(got && strcmp(got, cases[i].want) == 0 &&
                          n == strlen(cases[i].want),
                      "case %zu: got %s", i, got ? got : "NULL");
        free(got);
    }
    return CHECK_DONE();
}
