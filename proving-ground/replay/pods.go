package replay

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Pods makes n pods shaped like those of a Deployment on a real cluster:
// labels and annotations, an owner reference to a ReplicaSet, an app
// container and a sidecar with probes, resources and mounts, a status with
// conditions and container statuses, and managedFields for the two writers
// a real pod has (the scheduler and controller-manager that created it, the
// kubelet that reports its status). Encoded, one is 8.7 KB of JSON or 6.1 KB
// of protobuf, of which managedFields is 3.5 KB (its fieldsV1 is JSON in
// either encoding): a pod with a sidecar on a production cluster is 5 to
// 10 KB of JSON.
//
// The pods are a pure function of their index, so two calls give the same
// bytes, and their resourceVersions run from 1 to n.
func Pods(n int) []corev1.Pod {
	pods := make([]corev1.Pod, n)
	for i := range pods {
		pods[i] = pod(i)
	}
	return pods
}

// Namespaces is how many namespaces the pods are spread over.
const Namespaces = 20

func pod(i int) corev1.Pod {
	app := fmt.Sprintf("svc-%03d", i%97)
	hash := fmt.Sprintf("%08x", uint32(i%97)*2654435761)[:10-2]
	ns := fmt.Sprintf("team-%02d", i%Namespaces)
	created := metav1.NewTime(time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second))
	uid := types.UID(fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i, i%65536, i%4096, (i*7)%4096, i*2654435761))
	image := "registry.example.com/" + app + ":v1." + strconv.Itoa(i%13) + ".0"
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:              fmt.Sprintf("%s-%s-%05d", app, hash, i),
			Namespace:         ns,
			UID:               uid,
			ResourceVersion:   strconv.Itoa(i + 1),
			GenerateName:      app + "-" + hash + "-",
			CreationTimestamp: created,
			Labels: map[string]string{
				"app.kubernetes.io/name":       app,
				"app.kubernetes.io/instance":   app + "-prod",
				"app.kubernetes.io/component":  "backend",
				"app.kubernetes.io/part-of":    "storefront",
				"app.kubernetes.io/managed-by": "helm",
				"pod-template-hash":            hash,
				"version":                      "v1." + strconv.Itoa(i%13),
			},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/restartedAt": "2026-02-28T22:14:05Z",
				"prometheus.io/scrape":              "true",
				"prometheus.io/port":                "9090",
				"prometheus.io/path":                "/metrics",
				"checksum/config":                   fmt.Sprintf("%064x", i*2654435761),
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-" + hash,
				UID:        types.UID(fmt.Sprintf("%08x-0000-4000-8000-%012x", i%97, i%97)),
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
					Time: &created, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(specFields)},
				{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
					Time: &created, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(statusFields), Subresource: "status"},
			},
		},
		Spec:   podSpec(app, image, i),
		Status: podStatus(image, created, i),
	}
}

func podSpec(app, image string, i int) corev1.PodSpec {
	return corev1.PodSpec{
		Containers: []corev1.Container{
			{
				Name:  "app",
				Image: image,
				Args:  []string{"--config=/etc/" + app + "/config.yaml", "--log-level=info"},
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}, {Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP}},
				Env: []corev1.EnvVar{
					{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
					{Name: "POD_NAMESPACE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}},
					{Name: "GOMAXPROCS", Value: "2"},
				},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")},
				},
				VolumeMounts: []corev1.VolumeMount{
					{Name: "config", MountPath: "/etc/" + app, ReadOnly: true},
					{Name: "kube-api-access", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
				},
				LivenessProbe:            probe("/healthz", 8080),
				ReadinessProbe:           probe("/readyz", 8080),
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			},
			{
				Name:                     "proxy",
				Image:                    "registry.example.com/mesh/proxy:1.24.3",
				Args:                     []string{"proxy", "sidecar", "--concurrency=2"},
				Ports:                    []corev1.ContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090, Protocol: corev1.ProtocolTCP}},
				Resources:                corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
				VolumeMounts:             []corev1.VolumeMount{{Name: "kube-api-access", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}},
				ReadinessProbe:           probe("/healthz/ready", 15021),
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			},
		},
		Volumes: []corev1.Volume{
			{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: app + "-config"}, DefaultMode: ptr.To[int32](420)}}},
			{Name: "kube-api-access", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](420), Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3607)}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			}}}},
		},
		RestartPolicy:                 corev1.RestartPolicyAlways,
		TerminationGracePeriodSeconds: ptr.To[int64](30),
		DNSPolicy:                     corev1.DNSClusterFirst,
		ServiceAccountName:            app,
		NodeName:                      fmt.Sprintf("node-%03d", i%150),
		SchedulerName:                 "default-scheduler",
		Tolerations: []corev1.Toleration{
			{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
			{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
		},
		PreemptionPolicy:   ptr.To(corev1.PreemptLowerPriority),
		EnableServiceLinks: ptr.To(true),
		Priority:           ptr.To[int32](0),
	}
}

func probe(path string, port int) *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler:     corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt(port), Scheme: corev1.URISchemeHTTP}},
		PeriodSeconds:    10,
		TimeoutSeconds:   1,
		SuccessThreshold: 1,
		FailureThreshold: 3,
	}
}

func podStatus(image string, created metav1.Time, i int) corev1.PodStatus {
	started := metav1.NewTime(created.Add(4 * time.Second))
	conditions := []corev1.PodCondition{}
	for _, c := range []corev1.PodConditionType{"PodReadyToStartContainers", corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled} {
		conditions = append(conditions, corev1.PodCondition{Type: c, Status: corev1.ConditionTrue, LastTransitionTime: started})
	}
	ip := fmt.Sprintf("10.%d.%d.%d", 64+i/65536%64, i/256%256, i%256)
	return corev1.PodStatus{
		Phase:      corev1.PodRunning,
		Conditions: conditions,
		HostIP:     fmt.Sprintf("192.168.%d.%d", i/150%256, i%150+10),
		HostIPs:    []corev1.HostIP{{IP: fmt.Sprintf("192.168.%d.%d", i/150%256, i%150+10)}},
		PodIP:      ip,
		PodIPs:     []corev1.PodIP{{IP: ip}},
		StartTime:  &created,
		QOSClass:   corev1.PodQOSBurstable,
		ContainerStatuses: []corev1.ContainerStatus{
			containerStatus("app", image, started, i),
			containerStatus("proxy", "registry.example.com/mesh/proxy:1.24.3", started, i),
		},
	}
}

func containerStatus(name, image string, started metav1.Time, i int) corev1.ContainerStatus {
	return corev1.ContainerStatus{
		Name:         name,
		State:        corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
		Ready:        true,
		RestartCount: int32(i % 3),
		Image:        image,
		ImageID:      image + "@sha256:" + fmt.Sprintf("%064x", len(image)*7919),
		ContainerID:  "containerd://" + fmt.Sprintf("%064x", i*31+len(name)),
		Started:      ptr.To(true),
	}
}

// The fieldsV1 of a Deployment's pod as the controller-manager and kubelet
// write them, trimmed of nothing: this is what makes managedFields heavy.
const specFields = `{"f:metadata":{"f:annotations":{".":{},"f:checksum/config":{},"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/path":{},"f:prometheus.io/port":{},"f:prometheus.io/scrape":{}},"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/component":{},"f:app.kubernetes.io/instance":{},"f:app.kubernetes.io/managed-by":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},"f:pod-template-hash":{},"f:version":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\"name\":\"GOMAXPROCS\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"POD_NAME\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}},"k:{\"name\":\"POD_NAMESPACE\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:imagePullPolicy":{},"f:livenessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\"containerPort\":9090,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},"k:{\"mountPath\":\"/etc/app\"}":{".":{},"f:mountPath":{},"f:name":{},"f:readOnly":{}}}},"k:{\"name\":\"proxy\"}":{".":{},"f:args":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":15090,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:serviceAccount":{},"f:serviceAccountName":{},"f:terminationGracePeriodSeconds":{},"f:volumes":{".":{},"k:{\"name\":\"config\"}":{".":{},"f:configMap":{".":{},"f:defaultMode":{},"f:name":{}},"f:name":{}}}}}`

const statusFields = `{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.64.0.1\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`
