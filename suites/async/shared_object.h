// Synchronization objects (cuda::barrier, cuda::pipeline_shared_state) placed in __shared__ storage.
// clang refuses a __shared__ variable of a type with a constructor, so the object lives in raw storage and is
// constructed by init() (10.26.3: one thread initializes, the block synchronizes, then threads participate).
#pragma once

#define CUCONFORM_SHARED_OBJECT(type, name)                             \
  __shared__ alignas(type) unsigned char name##_storage_[sizeof(type)]; \
  type& name = *reinterpret_cast<type*>(name##_storage_)
