#!/usr/bin/env bash
# patch-sizes: main~1 → main changes files whose patches fall around GitLab's diff limits
# (collapse at 20 480 bytes of hunk text, too large at 204 800):
#   big-edit.txt     120 KB on both sides, one line changed: a small patch of big blobs
#   grows.txt        1000 lines of 31 bytes appended: about 32 KB, collapsed
#   huge.txt         new, 8000 lines of 31 bytes: about 256 KB, too large
#   at-limit.txt     new, hunk text of exactly 20 480 bytes: collapsed
#   under-limit.txt  new, hunk text of 20 479 bytes: not collapsed
#   no-eol.txt       new, one 20 450-byte line without a newline: 20 494 bytes, collapsed
#   gone-big.txt     deleted, 25 KB: collapsed
#   blob.bin         300 KB of binary, changed: binary, never too large
#   small.txt        one line changed
source "$(dirname "$0")/lib.sh"
start_work_tree
line38=$(printf 'x%.0s' $(seq 1 38))
seq -f "%039g" 1 3000 > big-edit.txt
seq 1 10 > grows.txt
seq -f "%024g-gone" 1 1000 > gone-big.txt
head -c 300000 /dev/zero > blob.bin
printf 'one\n' > small.txt
git add -A
commit 'base'
sed -i 's/^000000000000000000000000000000000001500$/changed in the middle of a big file!!!/' big-edit.txt
seq -f "%030g" 1 1000 >> grows.txt
seq -f "%030g" 1 8000 > huge.txt
{ for _ in $(seq 1 511); do echo "$line38"; done; printf '%020d\n' 0; } > at-limit.txt
{ for _ in $(seq 1 511); do echo "$line38"; done; printf '%019d\n' 0; } > under-limit.txt
printf 'y%.0s' $(seq 1 20450) > no-eol.txt
git rm -q gone-big.txt
{ head -c 150000 /dev/zero; printf '\1'; head -c 149999 /dev/zero; } > blob.bin
printf 'two\n' > small.txt
git add -A
commit 'sizes'
publish
