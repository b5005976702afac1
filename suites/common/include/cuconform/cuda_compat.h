// The runtime API under the names of CUDA 13.0 when the suite is built with the headers of a 12.x toolkit
// (regression testing across toolkits, docs/results/toolkits.md). CUDA 13.0 gave the graph-edge and capture calls
// the signatures of their 12.x versioned forms (edge data, capture information v3) under the plain names; with a
// 12.x runtime the suite calls those versioned forms, which take the same arguments. Nothing changes with 13.x.
#pragma once

#include <cuda_runtime_api.h>

#if CUDART_VERSION < 13000
#undef cudaStreamGetCaptureInfo
#define cudaStreamGetCaptureInfo cudaStreamGetCaptureInfo_v3
#undef cudaStreamUpdateCaptureDependencies
#define cudaStreamUpdateCaptureDependencies cudaStreamUpdateCaptureDependencies_v2
#define cudaGraphGetEdges cudaGraphGetEdges_v2
#define cudaGraphAddDependencies cudaGraphAddDependencies_v2
#define cudaGraphRemoveDependencies cudaGraphRemoveDependencies_v2
#define cudaGraphNodeGetDependencies cudaGraphNodeGetDependencies_v2
#define cudaGraphNodeGetDependentNodes cudaGraphNodeGetDependentNodes_v2
#define cudaGraphAddNode cudaGraphAddNode_v2
#endif
