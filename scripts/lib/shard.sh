# The shard helpers of the census scripts, in POSIX sh (bash sources this file; the Slurm and
# Kubernetes job scripts carry its text, since they run on other nodes):
#   field DIR NAME  the value of the last line "NAME": "value" of DIR/manifest.json.
#   finished DIR SIZE K/N [ADVICE]  true when DIR holds a finished shard (a manifest.json and no
#                   checkpoint.json), false when it holds none or an interrupted one; a finished
#                   shard that is not K/N of SIZE is refused with `refuse` (ADVICE ends its line).
#   refuse MESSAGE  "error: MESSAGE" on stderr, exit 2 (a script may define its own after this).
field() {
  field_value=""
  while IFS= read -r field_line || [ -n "$field_line" ]; do
    case $field_line in *"\"$2\": \""*) field_value=${field_line#*\"$2\": \"}; field_value=${field_value%%\"*} ;; esac
  done <"$1/manifest.json"
  printf '%s' "$field_value"
}
finished() {
  [ -f "$1/manifest.json" ] && [ ! -f "$1/checkpoint.json" ] || return 1
  [ "$(field "$1" sizes)" = "$2" ] && [ "$(field "$1" shard)" = "$3" ] && return 0
  refuse "$1 holds a finished shard $(field "$1" shard) of $(field "$1" sizes), not shard $3 of $2${4:+: $4}"
}
refuse() {
  echo "error: $1" >&2
  exit 2
}
