# The shard helpers of the census scripts, in POSIX sh (bash sources this file; the Slurm and
# Kubernetes job scripts carry its text, since they run on other nodes):
#   field DIR NAME  the value of the last line "NAME": "value" of DIR/manifest.json.
field() {
  field_value=""
  while IFS= read -r field_line || [ -n "$field_line" ]; do
    case $field_line in *"\"$2\": \""*) field_value=${field_line#*\"$2\": \"}; field_value=${field_value%%\"*} ;; esac
  done <"$1/manifest.json"
  printf '%s' "$field_value"
}
