package replay

import (
	"bytes"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
)

// Encoding is the wire format the server answers in.
type Encoding string

const (
	// JSON is client-go's default for every clientset.
	JSON Encoding = "json"
	// Protobuf is what client-go's clientsets use when asked
	// (rest.Config.ContentType), and what the apiserver's own components use.
	Protobuf Encoding = "protobuf"
)

// MediaType is the Content-Type of a LIST answer in this encoding.
func (e Encoding) MediaType() string {
	if e == Protobuf {
		return runtime.ContentTypeProtobuf
	}
	return runtime.ContentTypeJSON
}

// encoder turns objects into the bytes the apiserver would send: whole
// objects with the versioned codec (kind and apiVersion set, a protobuf
// envelope), watch events with the stream serializer and its framer (one
// JSON document per line, or a 4-byte length before each protobuf message).
// It uses client-go's scheme, the same one both informers decode with.
type encoder struct {
	object runtime.Encoder
	stream runtime.Serializer
	framer runtime.Framer
}

func newEncoder(e Encoding) (*encoder, error) {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), e.MediaType())
	if !ok || info.StreamSerializer == nil {
		return nil, fmt.Errorf("replay: client-go's scheme has no stream serializer for %q", e.MediaType())
	}
	return &encoder{
		object: scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion),
		stream: info.StreamSerializer.Serializer,
		framer: info.StreamSerializer.Framer,
	}, nil
}

func (e *encoder) encode(obj runtime.Object) ([]byte, error) {
	var buf bytes.Buffer
	if err := e.object.Encode(obj, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// event is one framed watch event, ready to write to the connection.
func (e *encoder) event(t watch.EventType, obj runtime.Object) ([]byte, error) {
	raw, err := e.encode(obj)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := e.stream.Encode(&metav1.WatchEvent{Type: string(t), Object: runtime.RawExtension{Raw: raw}}, e.framer.NewFrameWriter(&buf)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// list encodes a PodList of items, with a continue token when more follow.
func (e *encoder) list(rv string, items []corev1.Pod, cont string, remaining int) ([]byte, error) {
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: cont}, Items: items}
	if cont != "" {
		l.RemainingItemCount = ptrInt64(int64(remaining))
	}
	return e.encode(l)
}

// bookmark is the event that ends a WatchList's initial events: a Pod
// carrying only the resourceVersion and the annotation the reflector
// waits for (metav1.InitialEventsAnnotationKey).
func (e *encoder) bookmark(rv string) ([]byte, error) {
	return e.event(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		ResourceVersion: rv,
		Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
	}})
}

func ptrInt64(v int64) *int64 { return &v }
