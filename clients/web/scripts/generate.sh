#!/usr/bin/env bash
# Generates src/gen (TypeScript, @bufbuild/protoc-gen-es v2) from every .proto of the repository:
# protos/ (common, lobby) and services/<game>/protos. Run by `make web-protos` (and `make protos`).
# protoc is the one the Python build already uses (grpcio-tools in .venv); the plugin is the
# lockfile's protoc-gen-es (npm ci first).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
plugin="$here/node_modules/.bin/protoc-gen-es"
[ -x "$plugin" ] || { echo "no $plugin: run npm ci in clients/web" >&2; exit 1; }
well_known="$("$python" -c 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))')"
includes=(-I "$root/protos")
files=()
while IFS= read -r proto; do files+=("${proto#"$root/protos/"}"); done < <(find "$root/protos/menagerie" -name '*.proto' | sort)
for game in $(find "$root/services" -mindepth 2 -maxdepth 2 -type d -name protos | sort); do
  includes+=(-I "$game")
  while IFS= read -r proto; do files+=("${proto#"$game/"}"); done < <(find "$game/menagerie" -name '*.proto' | sort)
done
out="${1:-$here/src/gen}"  # another folder: the freshness test compares
rm -rf "$out" && mkdir -p "$out"
"$python" -m grpc_tools.protoc --plugin=protoc-gen-es="$plugin" --es_out="$out" \
  --es_opt=target=ts,import_extension=none "${includes[@]}" -I "$well_known" "${files[@]}"
echo "generated $(find "$out" -name "*.ts" | wc -l) files in $out"
