// Mirrors k8s.io/client-go v0.37.2 tools/cache/object-names.go: ObjectName,
// NewObjectName, Parts, String, ParseObjectName.

package deltafifo

// ObjectName is "namespace/name" as a struct: the key MetaNamespaceKeyFunc
// makes, before it is joined into a string. Stage 05's DeletedObject returns
// one, so a handler can name a deleted object even when all it has is a
// tombstone's key.
type ObjectName struct {
	Namespace string
	Name      string
}

// NewObjectName returns the ObjectName of namespace and name.
func NewObjectName(namespace, name string) ObjectName {
	return ObjectName{Namespace: namespace, Name: name}
}

// Parts is the inverse of NewObjectName.
func (n ObjectName) Parts() (namespace, name string) { return n.Namespace, n.Name }

// String is the key MetaNamespaceKeyFunc would make: "namespace/name", or
// "name" without a namespace.
func (n ObjectName) String() string {
	if n.Namespace != "" {
		return n.Namespace + "/" + n.Name
	}
	return n.Name
}

// ParseObjectName reads a key back, with SplitMetaNamespaceKey's rules (and
// its error for a key with more than one "/").
func ParseObjectName(key string) (ObjectName, error) {
	var n ObjectName
	var err error
	n.Namespace, n.Name, err = SplitMetaNamespaceKey(key)
	return n, err
}
