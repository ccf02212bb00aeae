#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# npm (Node.js's package manager), correct: npm install of a package from a
# local tarball (made with npm pack: 30 modules), offline, into a new
# project. npm reads the tarball, stores it in its content-addressed cache
# (~/.npm/_cacache: each entry written to a temporary file and moved into
# place), unpacks it into node_modules and writes package-lock.json. No
# finding of the families errors, redundant-open or reuse-offset, at most 15
# findings. The ground truth is the installed package, required and run.
. "$top_srcdir/tests/real/lib.sh"
need node:nodejs npm:npm
mount_ext4
lib=$TMP/corpus-lib
mkdir -p "$lib/lib" "$MNT/app"
echo '{ "name": "corpus-lib", "version": "1.0.0", "main": "index.js" }' > "$lib/package.json"
: > "$lib/index.js"
for i in $(seq 30); do
	echo "module.exports = (x) => x + $i;" > "$lib/lib/m$i.js"
	echo "exports.f$i = require('./lib/m$i.js');" >> "$lib/index.js"
done
echo "exports.total = () => Object.keys(exports).filter((k) => k !== 'total').reduce((s, k) => s + exports[k](0), 0);" >> "$lib/index.js"
(cd "$TMP" && npm pack --silent "$lib" > /dev/null 2>&1) || { echo "FAIL: npm pack"; exit 1; }
echo '{ "name": "corpus-app", "version": "1.0.0", "private": true }' > "$MNT/app/package.json"
cd "$MNT/app" || exit 1
record npm-install-tarball npm install --offline --no-audit --no-fund --no-update-notifier \
	"$TMP/corpus-lib-1.0.0.tgz"
total=$(node -e 'console.log(require("corpus-lib").total())')
check "$MNT/app" "$total" << 'PY'
import json, os, sys, corpus
app, total = sys.argv[1], sys.argv[2]
c = corpus.Case("npm-install-tarball")
c.families()
mods = os.listdir(f"{app}/node_modules/corpus-lib/lib")
lock = json.load(open(f"{app}/package-lock.json"))
print(f"npm: {len(mods)} modules installed, total() = {total};"
      f" package-lock.json lists {sorted(lock.get('packages', {}))}")
if len(mods) != 30 or total != str(sum(range(1, 31))) \
        or "node_modules/corpus-lib" not in lock.get("packages", {}):
    c.fail("npm: expected the 30 modules installed, total() = 465, and the lock file")
c.done()
PY
