#!/usr/bin/env bash
# weird-file-names: files whose names hold spaces, a tab, a newline, quotes, a backslash,
# invalid UTF-8 (Latin-1 é), unicode, a leading dash and pathspec magic; main~1 adds them,
# main changes each one.
source "$(dirname "$0")/lib.sh"
start_work_tree
names=('with space.txt' "$(printf 'tab\there.txt')" "$(printf 'new\nline.txt')" 'quote"d.txt' "single'q.txt" 'back\slash.txt' "$(printf 'caf\xe9.txt')" 'unicodé 日本.txt' '-rf' ':(exclude)magic' 'dir with space/inner file.txt')
mkdir -p 'dir with space'
for name in "${names[@]}"; do printf 'v1\n' > "./$name"; done
git add -A; commit 'add weird names'
for name in "${names[@]}"; do printf 'v2\n' > "./$name"; done
git add -A; commit 'change weird names'
publish
