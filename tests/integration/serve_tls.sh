#!/usr/bin/env bash
# TLS on raidlab serve (GnuTLS): the client starts TLS with NBD_OPT_STARTTLS,
# libnbd's nbdinfo reports a TLS session, nbdcopy moves data both ways
# through it, and with --tls-require a plaintext client is refused while
# without it plaintext still works.  Certificates come from certtool.
. "$(dirname "$0")/lib.sh"
need certtool
need nbdinfo
need nbdcopy

mkdir pki
certtool --generate-privkey --outfile pki/ca-key.pem >/dev/null 2>&1
printf 'cn = raidlab test CA\nca\ncert_signing_key\nexpiration_days = 2\n' >ca.info
certtool --generate-self-signed --load-privkey pki/ca-key.pem --template ca.info \
	--outfile pki/ca-cert.pem >/dev/null 2>&1
certtool --generate-privkey --outfile key.pem >/dev/null 2>&1
printf 'cn = localhost\ndns_name = localhost\ntls_www_server\nencryption_key\nsigning_key\nexpiration_days = 2\n' >srv.info
certtool --generate-certificate --load-privkey key.pem --load-ca-certificate pki/ca-cert.pem \
	--load-ca-privkey pki/ca-key.pem --template srv.info --outfile cert.pem >/dev/null 2>&1
[ -s cert.pem ] || fail "certtool made no certificate"

serve() { # ARGS...: start, wait until listening
	rm -f s.sock ready
	"$RAIDLAB" serve 'mem(size=16m)' --socket s.sock --tls-cert cert.pem --tls-key key.pem \
		--no-status --ready-file ready "$@" >serve.out 2>serve.err &
	SPID=$!
	cleanup_hooks+=("kill $SPID 2>/dev/null")
	for _ in $(seq 100); do [ -s ready ] && return 0; sleep 0.05; done
	cat serve.err; fail "server did not start"
}
TU="nbds+unix:///?socket=s.sock&tls-certificates=$T/pki&tls-hostname=localhost"
PU="nbd+unix:///?socket=s.sock"

serve --tls-require
nbdinfo "$TU" >info.out || fail "nbdinfo over TLS failed"
grep -q "with TLS" info.out || { cat info.out; fail "no TLS session"; }
head -c 16M /dev/urandom >in.bin
nbdcopy in.bin "$TU" || fail "nbdcopy into the export over TLS"
nbdcopy "$TU" out.bin || fail "nbdcopy out of the export over TLS"
cmp in.bin out.bin || fail "TLS round trip differs"
nbdinfo "$PU" >plain.out 2>&1 && { cat plain.out; fail "plaintext client accepted with --tls-require"; }
kill -TERM $SPID; wait $SPID || fail "server exit"

serve
nbdinfo "$PU" | grep -q "without TLS" || fail "plaintext refused although TLS is only offered"
nbdinfo "$TU" | grep -q "with TLS" || fail "TLS not offered"
kill -TERM $SPID; wait $SPID || fail "server exit"

expect_fail 2 "go together" "$RAIDLAB" serve 'mem()' --socket x.sock --tls-cert cert.pem
expect_fail 1 "tls-key" "$RAIDLAB" serve 'mem()' --socket x.sock --tls-cert cert.pem --tls-key in.bin
echo "serve_tls: ok"
