#!/usr/bin/env bash
# --images N,WxH (docs/workloads.md, "Images"): each built-in prompt gets N
# seeded W x H PNG images as image_url data-URL parts (openai-chat) or
# base64 image sources (anthropic); the PNGs decode (CRCs, inflated size);
# the same seed gives the same bytes, another seed others; the header says
# the option; the summary shows each request's input bytes (the body's,
# also with --no-content through body_bytes); the replay server counts
# the images (/_replay/stats "images") and their tokens in usage; share
# leaves no image byte; API kinds and workloads without images refuse.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=1ms,tpot=0,tokens=4'
check_png() { python3 "$TT_SOURCE_DIR/tests/lib/png_check.py" <"$1"; }

# without images: the replay's input tokens, to see what 2 images add
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short -o "$T/plain.ttrace" || fail "plain"
"$TT_RECORD" -q -u "$URL" -m m -n 1 --images 2,64x64 -o "$T/a.ttrace" || fail "record --images"
assert_eq "$(curl -s "$URL/_replay/stats" | jq -r .images)" 6 "replay counted 3 requests x 2 images"
d=$(dump "$T/a.ttrace")
check_png "$d" >"$T/a.png" || fail "an image does not decode"
assert_eq "$(awk '{print $2, $3}' "$T/a.png" | sort -u)" "2 64x64,64x64" "2 PNGs of 64x64 per request"
assert_eq "$(awk '{print $4}' "$T/a.png" | sort -u | wc -l)" 3 "each prompt its own images"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.images')" "2,64x64" "header option"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.body|fromjson|.messages[0].content[0].type]|unique|join(",")')" \
    text "the prompt's text first"

# the replay counts each 64x64 image as 9 tokens (28-pixel patches)
"$TT_ANALYZE" requests --format json "$T/plain.ttrace" >"$T/plain.json"
"$TT_ANALYZE" requests --format json "$T/a.ttrace" >"$T/a.json"
assert_eq "$(jq -rs 'map(select(.class=="short-short"))[0].input_tokens' "$T/a.json")" \
    "$(( $(jq -rs '.[0].input_tokens' "$T/plain.json") + 18 ))" "usage counts the images' tokens"

# the same seed gives the same bytes; another seed others
"$TT_RECORD" -q -u "$URL" -m m -n 1 --images 2,64x64 -o "$T/b.ttrace" || fail "again"
"$TT_RECORD" -q -u "$URL" -m m -n 1 --images 2,64x64 --seed 9 -o "$T/c.ttrace" || fail "seed 9"
check_png "$(dump "$T/b.ttrace")" >"$T/b.png"
check_png "$(dump "$T/c.ttrace")" >"$T/c.png"
assert_eq "$(cat "$T/b.png")" "$(cat "$T/a.png")" "same seed, same images"
[ "$(awk '{print $4}' "$T/c.png")" != "$(awk '{print $4}' "$T/a.png")" ] || fail "--seed 9 made the same images"

# the summary's input bytes: each request's body length
want=$(jqs "$d" '[.[]|select(.kind=="request")|.body|utf8bytelength]|max')
[ "$want" -gt 32000 ] || fail "bodies of 2 64x64 images are over 32000 bytes: $want"
"$TT_ANALYZE" summary --format json "$T/a.ttrace" >"$T/sum.json" || fail "summary"
assert_eq "$(jq -r '.overall.input_bytes|"\(.n) \(.max)"' "$T/sum.json")" "3 $want" "summary input_bytes"
"$TT_ANALYZE" summary --detail "$T/a.ttrace" >"$T/detail.txt" || fail "summary --detail"
grep -q '^  input bytes (B) ' "$T/detail.txt" || fail "no input bytes row in --detail"
# --no-content: no body, its size in body_bytes
"$TT_RECORD" -q -u "$URL" -m m -n 1 --images 2,64x64 --no-content -o "$T/nc.ttrace" || fail "no-content"
nc=$(dump "$T/nc.ttrace")
assert_eq "$(jqs "$nc" '[.[]|select(.kind=="request")|.body_bytes]|max')" "$want" "body_bytes"
"$TT_ANALYZE" summary --format json "$T/nc.ttrace" >"$T/nc.json"
assert_eq "$(jq -r '.overall.input_bytes.max' "$T/nc.json")" "$want" "input bytes with --no-content"

# anthropic: base64 image sources, counted too
"$TT_RECORD" -q -u "$URL" --api anthropic -m m -n 1 --images 1,100x50 --classes short-short -o "$T/an.ttrace" ||
    fail "anthropic"
assert_eq "$(check_png "$(dump "$T/an.ttrace")" | awk '{print $2, $3}')" "1 100x50" "anthropic image"
assert_eq "$(curl -s "$URL/_replay/stats" | jq -r .images)" 25 "replay counted the anthropic image (6 + 3 runs x 6 + 1)"

# share leaves no image byte (the same base64 nowhere in the shared file)
"$TT_ANALYZE" share "$T/a.ttrace" -o "$T/s.ttrace" 2>/dev/null || fail "share"
s=$(dump "$T/s.ttrace")
jqs "$d" '.[]|select(.kind=="request")|.body|fromjson|.messages[0].content[1:][]|.image_url.url|.[22:86]' >"$T/b64"
[ "$(wc -l <"$T/b64")" -eq 6 ] || fail "6 image prefixes"
! grep -qFf "$T/b64" "$s" || fail "share kept image bytes"
! grep -qF 'iVBORw0KGgo' "$s" || fail "share kept a PNG signature"

# refused, with a reason
for bad in 0,8x8 65,8x8 2,0x8 2,8x4097 2,8 2x8x8 '2,8x8 '; do
    expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --images "$bad" -o "$T/x.ttrace" 2>"$T/err"
    grep -q -- "--images: '$bad' is not N,WxH" "$T/err" || fail "$bad: $(cat "$T/err")"
done
for api in openai-completions openai-responses; do
    expect_exit 2 "$TT_RECORD" -q -u "$URL" --api "$api" -m m --images 1,8x8 -o "$T/x.ttrace" 2>"$T/err"
    grep -q "api $api bodies carry no images" "$T/err" || fail "$api: $(cat "$T/err")"
done
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --images 1,8x8 -w agent -o "$T/x.ttrace" 2>"$T/err"
grep -q "leave out -w" "$T/err" || fail "-w agent: $(cat "$T/err")"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --images 1,8x8 --input-tokens 100 -o "$T/x.ttrace" 2>"$T/err"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --images 64,4096x4096 -o "$T/x.ttrace" 2>"$T/err"
grep -q "MiB of images" "$T/err" || fail "too many bytes: $(cat "$T/err")"
echo "ok"
