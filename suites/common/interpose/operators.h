// The host-side mutation operators of `scripts/conformance mutate` (the `runtime` families of
// harness/cuconform/mutation/runtime_operators.py, which names, describes and scores them): each makes some CUDA
// driver entry points misbehave the way one plausible driver or runtime bug would. The suite links the CUDA runtime
// statically, and the runtime reaches the driver only through dlsym on libcuda.so.1 and cuGetProcAddress, so
// interpose.cpp (a library loaded with LD_PRELOAD) hands out its wrappers there; see README.md beside this file.
//
// CUCONFORM_ENTRIES: every driver entry point a wrapper exists for, by its base name (cuGetProcAddress's symbol).
// CUCONFORM_OPERATORS: X(id, "name", entries...): the entries each operator wraps; only those are handed out while
// it is the one named by CUCONFORM_RUNTIME_MUTANT, so every other call reaches the driver untouched and uncounted.
#pragma once

#define CUCONFORM_ENTRIES(X)            \
  X(cuStreamWaitEvent)                  \
  X(cuEventRecord)                      \
  X(cuEventRecordWithFlags)             \
  X(cuStreamSynchronize)                \
  X(cuEventSynchronize)                 \
  X(cuCtxSynchronize)                   \
  X(cuEventQuery)                       \
  X(cuStreamQuery)                      \
  X(cuEventElapsedTime)                 \
  X(cuEventCreate)                      \
  X(cuStreamCreate)                     \
  X(cuStreamCreateWithPriority)         \
  X(cuLaunchHostFunc)                   \
  X(cuStreamAddCallback)                \
  X(cuGraphAddKernelNode)               \
  X(cuGraphAddMemcpyNode)               \
  X(cuGraphAddMemsetNode)               \
  X(cuGraphAddHostNode)                 \
  X(cuGraphAddChildGraphNode)           \
  X(cuGraphAddEmptyNode)                \
  X(cuGraphAddEventRecordNode)          \
  X(cuGraphAddEventWaitNode)            \
  X(cuGraphAddNode)                     \
  X(cuGraphAddDependencies)             \
  X(cuGraphExecKernelNodeSetParams)     \
  X(cuGraphExecMemcpyNodeSetParams)     \
  X(cuGraphExecMemsetNodeSetParams)     \
  X(cuGraphExecHostNodeSetParams)       \
  X(cuGraphExecChildGraphNodeSetParams) \
  X(cuGraphExecEventRecordNodeSetEvent) \
  X(cuGraphExecEventWaitNodeSetEvent)   \
  X(cuGraphExecNodeSetParams)           \
  X(cuGraphExecUpdate)                  \
  X(cuGraphLaunch)                      \
  X(cuGraphNodeSetEnabled)              \
  X(cuGraphConditionalHandleCreate)     \
  X(cuGraphRetainUserObject)            \
  X(cuMemcpy)                           \
  X(cuMemcpyAsync)                      \
  X(cuMemcpyHtoD)                       \
  X(cuMemcpyDtoH)                       \
  X(cuMemcpyDtoD)                       \
  X(cuMemcpyHtoDAsync)                  \
  X(cuMemcpyDtoHAsync)                  \
  X(cuMemcpyDtoDAsync)                  \
  X(cuMemcpy2D)                         \
  X(cuMemcpy2DUnaligned)                \
  X(cuMemcpy2DAsync)                    \
  X(cuMemcpy3D)                         \
  X(cuMemcpy3DAsync)                    \
  X(cuMemsetD8)                         \
  X(cuMemsetD16)                        \
  X(cuMemsetD32)                        \
  X(cuMemsetD8Async)                    \
  X(cuMemsetD16Async)                   \
  X(cuMemsetD32Async)                   \
  X(cuMemsetD2D8)                       \
  X(cuMemsetD2D32)                      \
  X(cuMemsetD2D8Async)                  \
  X(cuMemsetD2D32Async)                 \
  X(cuMemAlloc)                         \
  X(cuMemAllocManaged)                  \
  X(cuMemAllocAsync)                    \
  X(cuMemAllocFromPoolAsync)            \
  X(cuMemAllocPitch)                    \
  X(cuMemAllocHost)                     \
  X(cuMemHostAlloc)                     \
  X(cuMemFree)                          \
  X(cuMemFreeAsync)                     \
  X(cuMemPoolGetAttribute)              \
  X(cuMemPoolSetAttribute)              \
  X(cuMemPoolTrimTo)                    \
  X(cuPointerGetAttribute)              \
  X(cuPointerGetAttributes)             \
  X(cuStreamAttachMemAsync)             \
  X(cuMemAdvise)                        \
  X(cuMemPrefetchAsync)                 \
  X(cuMemRangeGetAttribute)             \
  X(cuMemSetAccess)                     \
  X(cuMemGetAllocationGranularity)      \
  X(cuCtxSetLimit)                      \
  X(cuLaunchKernel)                     \
  X(cuLaunchKernelEx)                   \
  X(cuLaunchCooperativeKernel)          \
  X(cuFuncSetAttribute)                 \
  X(cuKernelSetAttribute)               \
  X(cuDriverGetVersion)                 \
  X(cuTexObjectCreate)

#define CUCONFORM_GRAPH_ADDS                                                                                     \
  E_cuGraphAddKernelNode, E_cuGraphAddMemcpyNode, E_cuGraphAddMemsetNode, E_cuGraphAddHostNode,                  \
      E_cuGraphAddChildGraphNode, E_cuGraphAddEmptyNode, E_cuGraphAddEventRecordNode, E_cuGraphAddEventWaitNode, \
      E_cuGraphAddNode, E_cuGraphAddDependencies
#define CUCONFORM_PLAIN_COPIES                                                                      \
  E_cuMemcpy, E_cuMemcpyAsync, E_cuMemcpyHtoD, E_cuMemcpyDtoH, E_cuMemcpyDtoD, E_cuMemcpyHtoDAsync, \
      E_cuMemcpyDtoHAsync, E_cuMemcpyDtoDAsync
#define CUCONFORM_ASYNC_COPIES E_cuMemcpyAsync, E_cuMemcpyHtoDAsync, E_cuMemcpyDtoHAsync, E_cuMemcpyDtoDAsync
#define CUCONFORM_MEMSETS                                                                                \
  E_cuMemsetD8, E_cuMemsetD16, E_cuMemsetD32, E_cuMemsetD8Async, E_cuMemsetD16Async, E_cuMemsetD32Async, \
      E_cuMemsetD2D8, E_cuMemsetD2D32, E_cuMemsetD2D8Async, E_cuMemsetD2D32Async
#define CUCONFORM_ALLOCATIONS                                                                         \
  E_cuMemAlloc, E_cuMemAllocManaged, E_cuMemAllocAsync, E_cuMemAllocFromPoolAsync, E_cuMemAllocPitch, \
      E_cuMemAllocHost, E_cuMemHostAlloc
#define CUCONFORM_LAUNCHES E_cuLaunchKernel, E_cuLaunchKernelEx, E_cuLaunchCooperativeKernel

// X(id, "name", entries...): one line each; harness/tests/test_mutation_runtime.py reads these lines.
#define CUCONFORM_OPERATORS(X)                                                                                       \
  X(stream_wait_event_dropped, "stream-wait-event-dropped", E_cuStreamWaitEvent)                                     \
  X(stream_wait_event_other_stream, "stream-wait-event-other-stream", E_cuStreamWaitEvent)                           \
  X(event_record_dropped, "event-record-dropped", E_cuEventRecord, E_cuEventRecordWithFlags)                         \
  X(event_record_other_stream, "event-record-other-stream", E_cuEventRecord, E_cuEventRecordWithFlags)               \
  X(stream_synchronize_returns_early, "stream-synchronize-returns-early", E_cuStreamSynchronize)                     \
  X(event_synchronize_returns_early, "event-synchronize-returns-early", E_cuEventSynchronize)                        \
  X(ctx_synchronize_returns_early, "ctx-synchronize-returns-early", E_cuCtxSynchronize)                              \
  X(event_query_always_complete, "event-query-always-complete", E_cuEventQuery)                                      \
  X(stream_query_always_idle, "stream-query-always-idle", E_cuStreamQuery)                                           \
  X(event_elapsed_time_halved, "event-elapsed-time-halved", E_cuEventElapsedTime)                                    \
  X(event_disable_timing_ignored, "event-disable-timing-ignored", E_cuEventCreate)                                   \
  X(stream_priority_ignored, "stream-priority-ignored", E_cuStreamCreateWithPriority)                                \
  X(stream_non_blocking_ignored, "stream-non-blocking-ignored", E_cuStreamCreate, E_cuStreamCreateWithPriority)      \
  X(host_callback_runs_early, "host-callback-runs-early", E_cuLaunchHostFunc, E_cuStreamAddCallback)                 \
  X(graph_edge_dropped, "graph-edge-dropped", CUCONFORM_GRAPH_ADDS)                                                  \
  X(graph_exec_kernel_params_not_updated, "graph-exec-kernel-params-not-updated", E_cuGraphExecKernelNodeSetParams)  \
  X(graph_exec_node_params_not_updated, "graph-exec-node-params-not-updated", E_cuGraphExecMemcpyNodeSetParams,      \
    E_cuGraphExecMemsetNodeSetParams, E_cuGraphExecHostNodeSetParams, E_cuGraphExecChildGraphNodeSetParams,          \
    E_cuGraphExecEventRecordNodeSetEvent, E_cuGraphExecEventWaitNodeSetEvent, E_cuGraphExecNodeSetParams)            \
  X(graph_exec_update_ignored, "graph-exec-update-ignored", E_cuGraphExecUpdate)                                     \
  X(graph_launch_other_stream, "graph-launch-other-stream", E_cuGraphLaunch)                                         \
  X(graph_node_enable_ignored, "graph-node-enable-ignored", E_cuGraphNodeSetEnabled)                                 \
  X(graph_conditional_default_ignored, "graph-conditional-default-ignored", E_cuGraphConditionalHandleCreate)        \
  X(graph_user_object_not_retained, "graph-user-object-not-retained", E_cuGraphRetainUserObject)                     \
  X(memcpy_copies_half, "memcpy-copies-half", CUCONFORM_PLAIN_COPIES)                                                \
  X(memcpy_async_other_stream, "memcpy-async-other-stream", CUCONFORM_ASYNC_COPIES)                                  \
  X(memcpy_2d_3d_last_row_dropped, "memcpy-2d-3d-last-row-dropped", E_cuMemcpy2D, E_cuMemcpy2DUnaligned,             \
    E_cuMemcpy2DAsync, E_cuMemcpy3D, E_cuMemcpy3DAsync)                                                              \
  X(memset_value_changed, "memset-value-changed", CUCONFORM_MEMSETS)                                                 \
  X(memset_count_halved, "memset-count-halved", CUCONFORM_MEMSETS)                                                   \
  X(malloc_misaligned, "malloc-misaligned", E_cuMemAlloc, E_cuMemAllocAsync, E_cuMemAllocFromPoolAsync, E_cuMemFree, \
    E_cuMemFreeAsync)                                                                                                \
  X(malloc_out_of_memory_to_invalid_value, "malloc-out-of-memory-to-invalid-value", CUCONFORM_ALLOCATIONS)           \
  X(free_async_other_stream, "free-async-other-stream", E_cuMemFreeAsync)                                            \
  X(pool_attribute_stale, "pool-attribute-stale", E_cuMemPoolGetAttribute)                                           \
  X(pool_attribute_set_ignored, "pool-attribute-set-ignored", E_cuMemPoolSetAttribute)                               \
  X(pool_trim_ignored, "pool-trim-ignored", E_cuMemPoolTrimTo)                                                       \
  X(pointer_memory_type_swapped, "pointer-memory-type-swapped", E_cuPointerGetAttribute, E_cuPointerGetAttributes)   \
  X(managed_attach_host_ignored, "managed-attach-host-ignored", E_cuMemAllocManaged, E_cuStreamAttachMemAsync)       \
  X(mem_advise_ignored, "mem-advise-ignored", E_cuMemAdvise)                                                         \
  X(mem_prefetch_ignored, "mem-prefetch-ignored", E_cuMemPrefetchAsync)                                              \
  X(mem_range_attribute_stale, "mem-range-attribute-stale", E_cuMemRangeGetAttribute)                                \
  X(vmm_set_access_ignored, "vmm-set-access-ignored", E_cuMemSetAccess)                                              \
  X(vmm_granularity_halved, "vmm-granularity-halved", E_cuMemGetAllocationGranularity)                               \
  X(ctx_set_limit_ignored, "ctx-set-limit-ignored", E_cuCtxSetLimit)                                                 \
  X(launch_error_swallowed, "launch-error-swallowed", CUCONFORM_LAUNCHES)                                            \
  X(launch_attributes_dropped, "launch-attributes-dropped", E_cuLaunchKernelEx)                                      \
  X(func_set_attribute_ignored, "func-set-attribute-ignored", E_cuFuncSetAttribute, E_cuKernelSetAttribute)          \
  X(driver_version_lowered, "driver-version-lowered", E_cuDriverGetVersion)                                          \
  X(texture_filter_mode_point, "texture-filter-mode-point", E_cuTexObjectCreate)                                     \
  X(texture_address_mode_clamp, "texture-address-mode-clamp", E_cuTexObjectCreate)                                   \
  X(texture_normalized_coords_ignored, "texture-normalized-coords-ignored", E_cuTexObjectCreate)                     \
  X(texture_read_mode_flipped, "texture-read-mode-flipped", E_cuTexObjectCreate)
