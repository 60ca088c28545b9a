#!/usr/bin/env bash
# `raidlab ui` refuses whoever is not the page it printed: a request without
# the token or with a wrong one, a Host other than its loopback address and
# port (DNS rebinding), a POST from another site's Origin; a malformed or
# oversized request gets 400/431 and the server goes on; --listen with a
# non-loopback address is refused (it would need TLS); --ready-file holds
# the loopback URL with its token; SIGTERM stops it and removes its
# private results folder; a job stopped by closing its connection leaves
# no process behind.
. "$(dirname "$0")/lib.sh"
need curl
need python3

expect_fail 2 "TLS" "$RAIDLAB" ui --listen 0.0.0.0 --no-browser
expect_fail 2 "port" "$RAIDLAB" ui --port 70000 --no-browser

mkdir tmp
TMPDIR=$T/tmp "$RAIDLAB" ui --port 0 --ready-file ready --no-browser >ui.out 2>ui.err &
UPID=$!
cleanup_hooks+=("kill $UPID 2>/dev/null")
for _ in $(seq 200); do [ -s ready ] && break; sleep 0.05; done
[ -s ready ] || { cat ui.err; fail "no ready file"; }
url=$(cat ready)
[[ $url =~ ^http://127\.0\.0\.1:([0-9]+)/\?token=([0-9a-f]{32})$ ]] || fail "ready file: '$url'"
port=${BASH_REMATCH[1]} token=${BASH_REMATCH[2]}
grep -qF "$url" ui.out || fail "the URL is not printed"
base=http://127.0.0.1:$port

code() { curl -s -o "$T/body" -w '%{http_code}' "$@"; }
[ "$(code "$url")" = 200 ] || fail "the page with its token: $(cat body)"
grep -q '<title>raidlab</title>' body || fail "not the page"
grep -q "app.js?token=$token" body || fail "the page's script does not carry the token"
[ "$(code "$base/app.js?token=$token")" = 200 ] || fail "app.js"
[ "$(code "$base/")" = 403 ] || fail "no token: not refused"
[ "$(code "$base/app.js")" = 403 ] || fail "app.js without the token: not refused"
[ "$(code "$base/?token=0123456789abcdef0123456789abcdef")" = 403 ] || fail "wrong token: not refused"
[ "$(code "$base/?token=${token}0")" = 403 ] || fail "longer token: not refused"
[ "$(code -H "Host: evil.example:$port" "$url")" = 403 ] || fail "foreign Host: not refused"
[ "$(code -H "Host: 127.0.0.1:1" "$url")" = 403 ] || fail "another port in Host: not refused"
[ "$(code -H "Host: localhost:$port" "$url")" = 200 ] || fail "localhost:PORT refused"
[ "$(code -H "Host:" "$url")" = 403 ] || fail "no Host: not refused"
api="$base/api/job?token=$token"
[ "$(code -X POST -H "Origin: http://evil.example" -d kind=profiles "$api")" = 403 ] ||
	fail "POST from another Origin: not refused"
[ "$(code -X POST -H "Sec-Fetch-Site: cross-site" -d kind=profiles "$api")" = 403 ] ||
	fail "a cross-site POST: not refused"
[ "$(code -X POST -d kind=profiles "$base/api/job")" = 403 ] || fail "POST without token"
[ "$(code -X POST -H "Origin: http://127.0.0.1:$port" -d kind=profiles "$api")" = 200 ] ||
	fail "POST from the page's origin: $(cat body)"
grep -q '^event: exit' body && grep -q '^data: 0$' body || fail "profiles job: $(cat body)"
grep -q 'samsung-850evo-500' body || fail "profiles job output"
# a suite on a simulated drive: progress lines while it runs, then its result
[ "$(code -X POST -d 'kind=measure&suite=cdm&target=ssd(850evo)&size=16m&passes=1&duration=200ms' "$api")" = 200 ] ||
	fail "measure: $(cat body)"
grep -q '^data: raidlab run cdm .--target=ssd(850evo). --progress=json' body || fail "measure: command line: $(head -3 body)"
grep -q '^data: {"progress":{"target":0,"test":"SEQ1M Q8T1","phase":"read"' body ||
	fail "measure: no progress lines"
# (into a file: grep -q closing a pipe early would fail the pipeline under pipefail)
sed -n '/^event: result/,/^event: exit/p' body >result.ev
grep -q '"SEQ1M Q8T1"' result.ev || fail "measure: no result: $(grep -v '^data: {"progress' body | tail -n 12)"
tail -n 3 body | grep -q '^data: 0$' || fail "measure: exit status: $(tail -n 3 body)"
# fields are checked before anything runs
[ "$(code -X POST -d 'kind=measure&suite=--help&target=mem(size=1m)' "$api")" = 400 ] ||
	fail "an option as a suite name: not refused"
[ "$(code -X POST -d 'kind=measure&suite=cdm&target=-x' "$api")" = 400 ] ||
	fail "an option as a target: not refused"
[ "$(code -X POST -d 'kind=compare&r1=../../etc/passwd' "$api")" = 400 ] ||
	fail "a path as a result name: not refused"
[ "$(code -X POST -d 'kind=measure&suite=cdm&target=/dev/null&confirm=/dev/zero' "$api")" = 400 ] ||
	fail "a confirmation naming another path: not refused"
[ "$(code -X POST -d 'kind=shell' "$api")" = 400 ] || fail "unknown kind"

# malformed and oversized requests: 400/431, and the server answers on
raw() { python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.argv[2].encode("latin-1").decode("unicode_escape").encode("latin-1"))
try:
    s.shutdown(socket.SHUT_WR)
except OSError:
    pass
d = s.recv(100).decode("latin-1")
print(d.split("\r\n")[0])' "$port" "$1"; }
[ "$(raw 'GARBAGE\r\n\r\n')" = "HTTP/1.1 400 Bad Request" ] || fail "garbage"
[ "$(raw "GET /?token=$token HTTP/1.1\r\nHost: 127.0.0.1:$port\r\n folded\r\n\r\n")" = "HTTP/1.1 400 Bad Request" ] ||
	fail "folded header"
[ "$(raw "GET /?token=$token HTTP/1.1\r\nHost: 127.0.0.1:$port\r\nHost: x\r\n\r\n")" = "HTTP/1.1 400 Bad Request" ] ||
	fail "two Host headers"
[ "$(raw "GET /?token=$token HTTP/1.1\r\nHost: 127.0.0.1:$port\r\nTransfer-Encoding: chunked\r\n\r\n")" = "HTTP/1.1 400 Bad Request" ] ||
	fail "chunked body"
[ "$(raw "GET /?token=$token HTTP/1.1\r\nHost: 127.0.0.1:$port\r\nX: $(head -c 9000 /dev/zero | tr '\0' a)\r\n\r\n")" = "HTTP/1.1 431 Request Header Fields Too Large" ] ||
	fail "a 9000-byte header"
[ "$(raw "GET /?token=$token HTTP/1.1\r\nHost: 127.0.0.1:$port\r\nContent-Length: 99999999\r\n\r\n")" = "HTTP/1.1 413 Content Too Large" ] ||
	fail "a huge body"
[ "$(code "$url")" = 200 ] || fail "the server stopped answering after bad requests"

# a run stopped by closing its connection: its process group is gone within a second
curl -sN -X POST -d 'kind=measure&suite=cdm&target=mem(size=64m)&size=32m&passes=5&duration=5s' \
	"$api" >job.out &
CPID=$!
for _ in $(seq 100); do grep -q '"progress"' job.out 2>/dev/null && break; sleep 0.05; done
child=$(pgrep -P "$UPID" -f 'raidlab run cdm' || true)
[ -n "$child" ] || fail "the run did not start: $(cat job.out)"
kill "$CPID"
wait "$CPID" 2>/dev/null || true
for _ in $(seq 20); do kill -0 "$child" 2>/dev/null || break; sleep 0.05; done
kill -0 "$child" 2>/dev/null && fail "the run is still there 1 s after its page left"

res=$(find tmp -maxdepth 1 -name 'raidlab-ui.*')
[ -d "$res" ] || fail "no private results folder under TMPDIR"
kill -TERM "$UPID"
wait "$UPID" || fail "exit status after SIGTERM: $?"
[ ! -e "$res" ] || fail "the private results folder is left behind"
echo "ok"
