// rule: ExecutionSpace.GlobalCallNeedsExecutionConfiguration
// section: 5.4.3
// statement: any call to a __global__ function must specify an execution configuration
// error: error: a __global__ function call must be configured
// error.clang: error: call to global function 'kernel' not configured
// skip.nvrtc: host code (NVRTC compiles device code only)
__global__ void kernel() {}

void launch() { kernel(); }
