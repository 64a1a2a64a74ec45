package reflector

// NewDelayWithReset exposes the backoff to the tests, which compare it with
// apimachinery's wait.Backoff.DelayWithReset.
var NewDelayWithReset = newDelayWithReset
