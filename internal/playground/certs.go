package playground

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// credentials are what the two children need before they will start, all
// made fresh for each playground and signed by its own CA, whose key never
// leaves the process:
//   - a serving certificate for the apiserver, which the kubeconfig trusts;
//   - a serving certificate for etcd, and a client certificate that etcd
//     demands of every client (the apiserver, and us);
//   - a key to sign service-account tokens with, and a bearer token for us
//     (anonymous requests are refused, because the apiserver will not
//     combine anonymous auth with AlwaysAllow authorization).
//
// The CA is also how we know a child answers on its port, on Linux and
// macOS alike: a server that completes a TLS handshake verified against
// this CA holds one of its keys, and only our children were given one.
// Another etcd or apiserver that took the port first fails the handshake.
type credentials struct {
	caPEM     []byte
	caFile    string
	certFile  string
	keyFile   string
	saKeyFile string
	saPubFile string
	tokenFile string
	token     string

	etcdCertFile   string
	etcdKeyFile    string
	clientCertFile string
	clientKeyFile  string
	// client is the client certificate, for our own requests to etcd.
	client tls.Certificate
}

func writeCredentials(dir string) (*credentials, error) {
	c := &credentials{
		caFile:         filepath.Join(dir, "ca.crt"),
		certFile:       filepath.Join(dir, "apiserver.crt"),
		keyFile:        filepath.Join(dir, "apiserver.key"),
		saKeyFile:      filepath.Join(dir, "sa.key"),
		saPubFile:      filepath.Join(dir, "sa.pub"),
		tokenFile:      filepath.Join(dir, "tokens.csv"),
		etcdCertFile:   filepath.Join(dir, "etcd.crt"),
		etcdKeyFile:    filepath.Join(dir, "etcd.key"),
		clientCertFile: filepath.Join(dir, "etcd-client.crt"),
		clientKeyFile:  filepath.Join(dir, "etcd-client.key"),
	}
	ca, err := newCA()
	if err != nil {
		return nil, err
	}
	c.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.der})
	if err := os.WriteFile(c.caFile, c.caPEM, 0o600); err != nil {
		return nil, err
	}

	loopback := []net.IP{net.ParseIP("127.0.0.1")}
	serving := []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	client := []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	if _, err := ca.issue(c.certFile, c.keyFile, "kube-apiserver", serving,
		loopback, []string{"localhost", "kubernetes", "kubernetes.default.svc"}); err != nil {
		return nil, err
	}
	// etcd's JSON gateway (Compact uses it) calls etcd's own gRPC server
	// with etcd's serving certificate as its client certificate, so with
	// --client-cert-auth that certificate must be good for both.
	if _, err := ca.issue(c.etcdCertFile, c.etcdKeyFile, "etcd", append(serving, client...), loopback, []string{"localhost"}); err != nil {
		return nil, err
	}
	if c.client, err = ca.issue(c.clientCertFile, c.clientKeyFile, "playground-etcd-client", client, nil, nil); err != nil {
		return nil, err
	}

	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := writeKey(c.saKeyFile, saKey); err != nil {
		return nil, err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := writePEM(c.saPubFile, "PUBLIC KEY", saPub); err != nil {
		return nil, err
	}

	tok := make([]byte, 16)
	rand.Read(tok)
	c.token = hex.EncodeToString(tok)
	// token,user,uid,"groups": system:masters is what cluster-admin means.
	line := c.token + ",playground-admin,playground-admin,\"system:masters\"\n"
	if err := os.WriteFile(c.tokenFile, []byte(line), 0o600); err != nil {
		return nil, err
	}
	return c, nil
}

// certAuthority is a playground's own CA, valid for a day.
type certAuthority struct {
	cert   *x509.Certificate
	der    []byte
	key    *ecdsa.PrivateKey
	serial int64
}

func newCA() (*certAuthority, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "informer-playground-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &certAuthority{cert: cert, der: der, key: key, serial: 1}, nil
}

// issue signs a new key's certificate for one use (serving or client),
// writes both as PEM and returns them as a tls.Certificate.
func (ca *certAuthority) issue(certFile, keyFile, name string, usage []x509.ExtKeyUsage, ips []net.IP, dnsNames []string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	ca.serial++
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(ca.serial),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  usage,
		IPAddresses:  ips,
		DNSNames:     dnsNames,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := writePEM(certFile, "CERTIFICATE", der); err != nil {
		return tls.Certificate{}, err
	}
	if err := writeKey(keyFile, key); err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "EC PRIVATE KEY", der)
}

func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}
