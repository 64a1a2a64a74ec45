package faultproxy

import (
	"encoding/json"
	"fmt"
)

// The body faults. Each edits JSON the way a buggy or hostile server, a
// broken proxy or a bit flip would, and each is one a client must refuse
// or survive without losing anything.

// editList applies an armed Malformed or WrongType fault to a LIST body.
func (p *Proxy) editList(body []byte, contentType, res string) []byte {
	var list struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if !isJSON(contentType) {
		// Only take a fault when there is a list to put it in.
		for _, k := range []Kind{Malformed, WrongType} {
			if p.take(k) {
				p.hit(Fault{Kind: k, Resource: res, Detail: "skipped: protobuf", Skipped: true})
			}
		}
		return body
	}
	if err := json.Unmarshal(body, &list); err != nil || len(list.Items) == 0 {
		return body // not a list, or an empty one: nothing to spoil
	}
	switch {
	case p.take(Malformed):
		// Cut short mid-item: "unexpected end of JSON input".
		cut := len(body) / 2
		p.hit(Fault{Kind: Malformed, Resource: res, Detail: fmt.Sprintf("%s of %d items cut short at byte %d of %d", list.Kind, len(list.Items), cut, len(body))})
		return body[:cut]
	case p.take(WrongType):
		i := p.intN(len(list.Items))
		item, err := setField(list.Items[i], "metadata", func(meta map[string]json.RawMessage) {
			meta["name"] = json.RawMessage(`42`)
		})
		if err != nil {
			return body
		}
		list.Items[i] = item
		edited, err := replaceField(body, "items", list.Items)
		if err != nil {
			return body
		}
		p.hit(Fault{Kind: WrongType, Resource: res, Detail: fmt.Sprintf("item %d of %d: metadata.name is the number 42", i, len(list.Items))})
		return edited
	}
	return body
}

// editEvent applies an armed Malformed or WrongType fault to one watch
// event, and returns what to send in its place.
func (p *Proxy) editEvent(ev []byte, res string) [][]byte {
	var event struct {
		Type   string          `json:"type"`
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(ev, &event); err != nil {
		return [][]byte{ev}
	}
	switch event.Type {
	case "ADDED", "MODIFIED", "DELETED":
	default:
		return [][]byte{ev} // bookmarks and errors pass as they are
	}
	switch {
	case p.take(Malformed):
		obj, err := setField(event.Object, "", func(o map[string]json.RawMessage) {
			o["metadata"] = json.RawMessage(`"malformed by faultproxy"`)
		})
		if err != nil {
			return [][]byte{ev}
		}
		out, err := replaceField(ev, "object", obj)
		if err != nil {
			return [][]byte{ev}
		}
		p.hit(Fault{Kind: Malformed, Resource: res, Detail: event.Type + " event whose metadata is a string"})
		// The real event is not sent: the client's decoder fails on this
		// one and ends the watch, and the reflector lists again (client-go
		// retries an internal error in place only when told to), so the
		// change arrives with the new list.
		return [][]byte{out}
	case p.take(WrongType):
		var kind string
		obj, err := setField(event.Object, "", func(o map[string]json.RawMessage) {
			json.Unmarshal(o["kind"], &kind)
			other := "Secret"
			if kind == other {
				other = "ConfigMap"
			}
			o["kind"], _ = json.Marshal(other)
			o["apiVersion"] = json.RawMessage(`"v1"`)
		})
		if err != nil {
			return [][]byte{ev}
		}
		wrong, err := replaceField(ev, "object", obj)
		if err != nil {
			return [][]byte{ev}
		}
		p.hit(Fault{Kind: WrongType, Resource: res, Detail: fmt.Sprintf("a copy of a %s event, its %s relabelled another kind, sent before it", event.Type, kind)})
		// The copy comes first and the real event after it: a client that
		// skips what is not its type loses nothing.
		return [][]byte{wrong, ev}
	}
	return [][]byte{ev}
}

// setField decodes a JSON object, lets edit change it (or the object under
// field, when field is not ""), and encodes it again.
func setField(raw json.RawMessage, field string, edit func(map[string]json.RawMessage)) (json.RawMessage, error) {
	var o map[string]json.RawMessage
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	if field == "" {
		edit(o)
		return json.Marshal(o)
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(o[field], &inner); err != nil {
		return nil, err
	}
	edit(inner)
	b, err := json.Marshal(inner)
	if err != nil {
		return nil, err
	}
	o[field] = b
	return json.Marshal(o)
}

// replaceField sets one top-level field of a JSON object.
func replaceField(raw []byte, field string, value any) ([]byte, error) {
	var o map[string]json.RawMessage
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	b, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	o[field] = b
	return json.Marshal(o)
}
