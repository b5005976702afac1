// RAII owners for CUDA arrays and texture/surface objects, and the descriptors the rules build (6.2.14.1.1).
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <utility>
#include <vector>

#include "cuconform/check.h"

namespace textures {

class Array {
 public:
  // A CUDA array of `extent` (depth 0 for 1-D/2-D, height 0 for 1-D) with cudaMalloc3DArray `flags`.
  Array(const cudaChannelFormatDesc& format, cudaExtent extent, unsigned flags = 0) {
    CUDA_CHECK(cudaMalloc3DArray(&array_, &format, extent, flags));
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& other) noexcept : array_(std::exchange(other.array_, nullptr)) {}
  ~Array() { cudaFreeArray(array_); }
  cudaArray_t get() const { return array_; }

  // Copies `host` (tightly packed rows of `width` elements, `rows` rows per slice, `slices` slices) into the array.
  template <class T>
  void copy_from(const std::vector<T>& host, size_t width, size_t rows, size_t slices) {
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(const_cast<T*>(host.data()), width * sizeof(T), width, rows);
    copy.dstArray = array_;
    copy.extent = make_cudaExtent(width, rows, slices);
    copy.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3D(&copy));
  }

 private:
  cudaArray_t array_ = nullptr;
};

class MipmappedArray {
 public:
  MipmappedArray(const cudaChannelFormatDesc& format, cudaExtent extent, unsigned levels, unsigned flags = 0) {
    CUDA_CHECK(cudaMallocMipmappedArray(&array_, &format, extent, levels, flags));
  }
  MipmappedArray(const MipmappedArray&) = delete;
  MipmappedArray& operator=(const MipmappedArray&) = delete;
  ~MipmappedArray() { cudaFreeMipmappedArray(array_); }
  cudaMipmappedArray_t get() const { return array_; }
  cudaArray_t level(unsigned l) const {
    cudaArray_t a = nullptr;
    CUDA_CHECK(cudaGetMipmappedArrayLevel(&a, array_, l));
    return a;
  }

 private:
  cudaMipmappedArray_t array_ = nullptr;
};

class TextureObject {
 public:
  TextureObject(const cudaResourceDesc& resource, const cudaTextureDesc& texture) {
    CUDA_CHECK(cudaCreateTextureObject(&object_, &resource, &texture, nullptr));
  }
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;
  ~TextureObject() { cudaDestroyTextureObject(object_); }
  cudaTextureObject_t get() const { return object_; }

 private:
  cudaTextureObject_t object_ = 0;
};

class SurfaceObject {
 public:
  explicit SurfaceObject(cudaArray_t array) {
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    CUDA_CHECK(cudaCreateSurfaceObject(&object_, &resource));
  }
  SurfaceObject(const SurfaceObject&) = delete;
  SurfaceObject& operator=(const SurfaceObject&) = delete;
  ~SurfaceObject() { cudaDestroySurfaceObject(object_); }
  cudaSurfaceObject_t get() const { return object_; }

 private:
  cudaSurfaceObject_t object_ = 0;
};

inline cudaResourceDesc array_resource(cudaArray_t array) {
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  return resource;
}

struct Sampling {
  cudaTextureFilterMode filter = cudaFilterModePoint;
  cudaTextureAddressMode address = cudaAddressModeClamp;  // for every coordinate
  bool normalized = false;
  cudaTextureReadMode read = cudaReadModeElementType;
};

inline cudaTextureDesc texture_desc(const Sampling& s) {
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = s.address;
  desc.filterMode = s.filter;
  desc.readMode = s.read;
  desc.normalizedCoords = s.normalized ? 1 : 0;
  return desc;
}

}  // namespace textures
