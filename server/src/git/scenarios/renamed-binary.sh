#!/usr/bin/env bash
# renamed-binary: main~1 → main renames old.txt to new.txt (with a small edit), changes a
# binary file, makes script.sh executable, turns link-me into a symlink, changes a symlink's
# target, points a submodule gitlink at another commit, deletes gone.txt and adds added.txt.
source "$(dirname "$0")/lib.sh"
start_work_tree
seq 1 20 > old.txt
printf '\x89PNG\x00\x01\x02\x03' > image.png
printf '#!/bin/sh\necho hi\n' > script.sh
printf 'plain\n' > link-me
ln -s old.txt pointer
printf 'bye\n' > gone.txt
git add -A
git update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,vendor/lib
commit 'base'
git mv old.txt new.txt; seq 1 19 > new.txt; printf 'twenty!\n' >> new.txt
printf '\x89PNG\x00\x01\x02\x04\x05' > image.png
chmod +x script.sh
rm link-me; ln -s new.txt link-me
rm pointer; ln -s new.txt pointer
git rm -q gone.txt
printf 'hello\n' > added.txt
git add -A
git update-index --add --cacheinfo 160000,2222222222222222222222222222222222222222,vendor/lib
commit 'change everything'
publish
