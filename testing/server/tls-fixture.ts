/**
 * Certificates for mutual-TLS tests, made with the `openssl` command in a temporary folder: a test
 * CA, a server certificate for 127.0.0.1, a client certificate the agent knows (`client-a`), one
 * it does not know (`client-b`, same CA), a self-signed impostor with `client-a`'s subject, and a
 * self-signed server certificate for 127.0.0.1 (what one makes for an agent on one's own machine).
 *
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process"
import { X509Certificate } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** A certificate with its key, PEM encoded. */
export interface Credentials {
  readonly cert: string
  readonly key: string
  /** SHA-256 fingerprint as Node prints it (`AB:CD:...`). */
  readonly fingerprint256: string
}

/** Everything a mutual-TLS test needs. */
export interface TlsFixture {
  readonly ca: string
  readonly server: Credentials
  /** Signed by the CA, subject `O=Example, CN=client-a`, SAN `URI:spiffe://example.test/agent-a`. */
  readonly clientA: Credentials
  /** Signed by the CA, subject `O=Example, CN=client-b`. */
  readonly clientB: Credentials
  /** Self-signed, with client A's subject. */
  readonly impostor: Credentials
  /** Self-signed, for 127.0.0.1: a server certificate no client trusts by default. */
  readonly selfSignedServer: Credentials
}

/** Whether the `openssl` command can be run here. */
export const opensslAvailable = (): boolean => {
  try {
    return spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0
  } catch {
    return false
  }
}

/** Generates the fixture (EC P-256 keys, valid for two days). */
export const makeTlsFixture = (): TlsFixture => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-mtls-"))
  const path = (name: string) => join(dir, name)
  const openssl = (...args: Array<string>) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] })
  const key = (name: string) => openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path(`${name}.key`))
  const read = (name: string): Credentials => {
    const cert = readFileSync(path(`${name}.crt`), "utf8")
    return { cert, key: readFileSync(path(`${name}.key`), "utf8"), fingerprint256: new X509Certificate(cert).fingerprint256 }
  }
  const issue = (name: string, subject: string, extensions: string) => {
    key(name)
    openssl("req", "-new", "-key", path(`${name}.key`), "-subj", subject, "-out", path(`${name}.csr`))
    writeFileSync(path(`${name}.ext`), extensions)
    openssl(
      "x509", "-req", "-in", path(`${name}.csr`), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
      "-CAcreateserial", "-days", "2", "-sha256", "-extfile", path(`${name}.ext`), "-out", path(`${name}.crt`)
    )
  }
  try {
    key("ca")
    openssl(
      "req", "-x509", "-new", "-key", path("ca.key"), "-subj", "/O=a2a-actors tests/CN=Test CA", "-days", "2",
      "-sha256", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      "-out", path("ca.crt")
    )
    issue("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    const clientExt = (san: string) => `subjectAltName=${san}\nextendedKeyUsage=clientAuth\n`
    issue("client-a", "/O=Example/CN=client-a", clientExt("URI:spiffe://example.test/agent-a"))
    issue("client-b", "/O=Example/CN=client-b", clientExt("URI:spiffe://example.test/agent-b"))
    key("impostor")
    openssl(
      "req", "-x509", "-new", "-key", path("impostor.key"), "-subj", "/O=Example/CN=client-a", "-days", "2",
      "-sha256", "-addext", "extendedKeyUsage=clientAuth", "-out", path("impostor.crt")
    )
    key("self-signed")
    openssl(
      "req", "-x509", "-new", "-key", path("self-signed.key"), "-subj", "/CN=127.0.0.1", "-days", "2", "-sha256",
      "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "extendedKeyUsage=serverAuth", "-out", path("self-signed.crt")
    )
    return {
      ca: readFileSync(path("ca.crt"), "utf8"),
      server: read("server"),
      clientA: read("client-a"),
      clientB: read("client-b"),
      impostor: read("impostor"),
      selfSignedServer: read("self-signed")
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
