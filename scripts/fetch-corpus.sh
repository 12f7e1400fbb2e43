#!/usr/bin/env bash
# Rebuilds a measurement corpus that is kept outside the repository from its committed manifest: a TSV with the
# columns repo, commit, path and sha256 (bench/data/prompt-files/manifest.tsv, bench/data/unseen-runs/manifest.tsv).
# Fetches each repository at its commit (shallow, one fetch per commit) and writes every listed path to
# DEST/<owner>+<name>/<path>, checking its hash; files already there with the right hash are kept.
#
#   scripts/fetch-corpus.sh bench/data/unseen-runs/manifest.tsv ../corpora/unseen-runs
#   scripts/fetch-corpus.sh bench/data/prompt-files/manifest.tsv ../corpora/prompt-files
#
# AGENT_IMMUNE_GIT_URL sets where repositories come from: {repo} is owner/name, {folder} owner+name (default
# https://github.com/{repo}.git). Needs git, sha256sum and network access to that host.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: scripts/fetch-corpus.sh MANIFEST.tsv DEST" >&2
  exit 2
fi
manifest=$1
dest=$2
default_url='https://github.com/{repo}.git'
url_template=${AGENT_IMMUNE_GIT_URL:-$default_url}
cache="$dest/.git-cache"
mkdir -p "$cache"

# Column numbers of the fields we need, from the header.
read -r header <"$manifest"
column() {
  local i=1
  for name in $header; do
    [[ $name == "$1" ]] && { echo "$i"; return; }
    i=$((i + 1))
  done
  echo "manifest $manifest has no '$1' column" >&2
  exit 2
}
c_repo=$(column repo) c_commit=$(column commit) c_path=$(column path) c_sha=$(column sha256)

written=0 kept=0 failed=0
while IFS=$'\t' read -r -a row; do
  repo=${row[c_repo - 1]} commit=${row[c_commit - 1]} file=${row[c_path - 1]} sha=${row[c_sha - 1]%$'\r'}
  folder=${repo/\//+}
  # A manifest is data: refuse a path that would leave DEST or a repository name that is not owner/name.
  if [[ ! $repo =~ ^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$ || $file == /* || $file =~ (^|/)\.\.(/|$) || ! $commit =~ ^[0-9a-f]{40}$ ]]; then
    echo "skipped: unsafe row: $repo $commit $file" >&2
    failed=$((failed + 1))
    continue
  fi
  target="$dest/$folder/$file"
  if [[ -f $target ]] && [[ $(sha256sum "$target" | cut -c1-64) == "$sha" ]]; then
    kept=$((kept + 1))
    continue
  fi
  git_dir="$cache/$folder.git"
  if [[ ! -d $git_dir ]]; then
    git init -q --bare "$git_dir"
    url=${url_template//\{repo\}/$repo}
    git --git-dir="$git_dir" remote add origin "${url//\{folder\}/$folder}"
  fi
  if ! git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    git --git-dir="$git_dir" fetch -q --depth 1 --filter=blob:none origin "$commit" || { echo "cannot fetch $repo@$commit" >&2; failed=$((failed + 1)); continue; }
  fi
  mkdir -p "$(dirname "$target")"
  if git --git-dir="$git_dir" show "$commit:$file" >"$target.part" 2>/dev/null && [[ $(sha256sum "$target.part" | cut -c1-64) == "$sha" ]]; then
    mv "$target.part" "$target"
    written=$((written + 1))
  else
    rm -f "$target.part"
    echo "missing or changed: $repo@${commit:0:7} $file" >&2
    failed=$((failed + 1))
  fi
done < <(tail -n +2 "$manifest")

echo "$dest: $written written, $kept already there, $failed failed"
[[ $failed -eq 0 ]]
