# embed_prompts.cmake: writes a C source holding the built-in prompt files of
# record/workload/prompts/ as byte arrays (see record/workload/prompts.h).
# Run as: cmake -DPROMPT_DIR=<dir> -DOUT=<file.c> -P embed_prompts.cmake
set(code "/* Generated from record/workload/prompts/ by record/workload/embed_prompts.cmake. */\n")
string(APPEND code "#include \"prompts.h\"\n")
foreach(file short-short.txt short-long.txt long-context.txt long-short.txt
             agent-system.txt agent-sessions.jsonl)
  get_filename_component(name "${file}" NAME_WLE)
  string(REPLACE "-" "_" var "${name}")
  set(path "${PROMPT_DIR}/${file}")
  if(EXISTS "${path}")
    file(READ "${path}" hex HEX)
  else()
    message(WARNING "built-in prompt file ${path} is missing: embedding it empty")
    set(hex "")
  endif()
  string(LENGTH "${hex}" hexlen)
  math(EXPR len "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  string(APPEND code "\nconst unsigned char prompts_${var}[] = {\n${bytes}0x00};\n")
  string(APPEND code "const size_t prompts_${var}_len = ${len};\n")
endforeach()
file(WRITE "${OUT}" "${code}")
