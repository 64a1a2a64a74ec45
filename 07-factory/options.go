// Mirrors k8s.io/client-go v0.37.2 informers/factory.go: SharedInformerOption,
// WithCustomResyncConfig, WithTweakListOptions, WithNamespace,
// WithTransform.

package factory

import (
	"reflect"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/07-factory/internalinterfaces"
)

// SharedInformerOption configures a factory; pass options to
// NewSharedInformerFactoryWithOptions. A nil option is skipped.
type SharedInformerOption func(*sharedInformerFactory) *sharedInformerFactory

// WithCustomResyncConfig gives the informers of some types their own resync
// period, instead of the factory's default. Each key is an example object
// of its type (&corev1.Pod{}): the factory keys informers by Go type.
func WithCustomResyncConfig(resyncConfig map[metav1.Object]time.Duration) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		for obj, period := range resyncConfig {
			factory.customResync[reflect.TypeOf(obj)] = period
		}
		return factory
	}
}

// WithTweakListOptions applies tweakListOptions to every LIST and WATCH of
// every informer of the factory: a label or field selector narrows what
// every cache holds, and so what every lister can answer.
func WithTweakListOptions(tweakListOptions internalinterfaces.TweakListOptionsFunc) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.tweakListOptions = tweakListOptions
		return factory
	}
}

// WithNamespace limits every informer of the factory to one namespace:
// their requests go to /namespaces/<namespace>/…, so the caches hold nothing
// else. Cluster-scoped types (Namespaces) are not affected.
func WithNamespace(namespace string) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.namespace = namespace
		return factory
	}
}

// WithTransform sets transform on every informer the factory builds (stage
// 06's SetTransform: before anything is queued or cached, to drop
// managedFields say). It must accept every type the factory serves.
func WithTransform(transform informer.TransformFunc) SharedInformerOption {
	return func(factory *sharedInformerFactory) *sharedInformerFactory {
		factory.transform = transform
		return factory
	}
}
