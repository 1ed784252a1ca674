#!/bin/sh
# Makes a private CA and one certificate for every Menagerie service, once.
# Usage: make-certs.sh OUT_DIR "name name ..."   (deploy/compose.secure.yml runs it)
# Writes ca.pem (give it to clients: menagerie --tls-ca ca.pem), service.pem and
# service.key (every service serves with them; their names are its subject alternative
# names, with localhost and 127.0.0.1). Existing files are kept: the CA outlives restarts.
set -eu
out="$1"
names="$2"
if [ -s "$out/service.pem" ]; then
  echo "certificates already in $out"
  exit 0
fi
command -v openssl >/dev/null || apk add --no-cache openssl >/dev/null
mkdir -p "$out"
cd "$out"
sans="DNS:localhost,IP:127.0.0.1"
for name in $names; do sans="$sans,DNS:$name"; done
openssl req -x509 -newkey rsa:3072 -nodes -days 825 -subj "/CN=Menagerie local CA" \
  -keyout ca.key -out ca.pem
openssl req -newkey rsa:3072 -nodes -subj "/CN=menagerie" -keyout service.key -out service.csr
printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "$sans" > service.ext
openssl x509 -req -in service.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 825 \
  -extfile service.ext -out service.pem
rm -f service.csr service.ext ca.srl ca.key # the CA key is not needed again: nothing else is signed
# The services run as uid 10001 (deploy/docker/Dockerfile) and must read their key.
chown 10001:10001 service.key service.pem ca.pem 2>/dev/null || true
chmod 0400 service.key
echo "certificates for: $names"
