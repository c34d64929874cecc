// The fast readers' paths into ProfileBuilder, Profile and StringPool:
// cache hints, stacks looked up before they are made, chains of new stacks
// in one run, a capacity hint from the input size, and stand-in frames
// replaced at the end.
// Readers of millions of samples per second (collapsed, pprof, JFR,
// DeepFlow) use them; every other reader needs only fg/builder.h, whose
// calls give the same profile. Free functions, not members, so that the
// model's headers show the model: each reaches the builder's, the
// profile's or the string pool's internals through bulk::Access, a friend
// of all three.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "fg/builder.h"
#include "fg/profile.h"
#include "fg/string_pool.h"

namespace fg::bulk {

/// The builder's and the profile's internals, for the functions below
/// only.
struct Access {
  static const StringPool& strings(const ProfileBuilder& b) { return b.profile_.strings_; }
  static const Profile& profile(const ProfileBuilder& b) { return b.profile_; }
  static StackId find_stack(const ProfileBuilder& b, StackId parent, FrameId frame) {
    const StackId child{parent.index() + 1};
    if (b.flag(parent, ProfileBuilder::kUnindexedChild) && b.profile_.stack_frames_[child.index()] == frame)
      return child;
    return StackId{b.stacks_.find(ProfileBuilder::stack_key(parent, frame))};
  }
  static void prefetch_stack(const ProfileBuilder& b, StackId parent, FrameId frame) {
    b.stacks_.prefetch(ProfileBuilder::stack_key(parent, frame));
  }
  static void prefetch_sample(const ProfileBuilder& b, StackId stack, LabelSetId labels) {
    if (labels != LabelSetId{})
      b.samples_by_key_.prefetch(ProfileBuilder::sample_key(stack, labels));
    else if (stack.index() < b.unlabeled_sample_.size())
      __builtin_prefetch(&b.unlabeled_sample_[stack.index()]);
  }
  static void prefetch_unlabeled_values(const ProfileBuilder& b, StackId stack) {
    if (stack.index() < b.unlabeled_sample_.size() &&
        b.unlabeled_sample_[stack.index()] != ProfileBuilder::kNoSample)
      __builtin_prefetch(b.profile_.values_.data() +
                         std::size_t{b.unlabeled_sample_[stack.index()]} * b.profile_.value_types_.size());
  }
  static void prefetch_stack(const Profile& p, StackId id) {
    __builtin_prefetch(&p.stack_frames_[id.index()]);
    p.parents_.prefetch(id);
  }
  static void prefetch_slot(const StringPool& p, std::uint64_t hash) {
    __builtin_prefetch(&p.table_[hash & p.mask_]);
  }
  static void prefetch_entry(const StringPool& p, std::uint64_t hash) {
    const std::uint32_t id = p.table_[hash & p.mask_].id;
    if (id != StringPool::kNoSlot) __builtin_prefetch(&p.strings_[id]);
  }
  static void prefetch_bytes(const StringPool& p, std::uint64_t hash) {
    const std::uint32_t id = p.table_[hash & p.mask_].id;
    if (id != StringPool::kNoSlot) __builtin_prefetch(p.strings_[id].data());
  }
  static void reserve_stacks(ProfileBuilder& b, std::size_t n);
  static StackId extend(ProfileBuilder& b, StackId parent, std::span<const FrameId> frames);
  static Profile finish(ProfileBuilder&& b, std::span<const FrameId> frames);
};

/// The builder's string pool, for its cache hints (prefetch_slot() and
/// the two after it).
inline const StringPool& strings(const ProfileBuilder& b) { return Access::strings(b); }

/// Cache hints for a coming pool.intern(s, hash), in three steps that each
/// depend on memory the step before brought in: the table slot, the
/// string's entry, its bytes. Interning a batch of strings runs each step
/// over the whole batch first, so their cache misses overlap.
inline void prefetch_slot(const StringPool& pool, std::uint64_t hash) { Access::prefetch_slot(pool, hash); }
/// The second step: the entry of the string in the slot prefetch_slot() brought in.
inline void prefetch_entry(const StringPool& pool, std::uint64_t hash) { Access::prefetch_entry(pool, hash); }
/// The third step: the bytes of the string prefetch_entry() brought in.
inline void prefetch_bytes(const StringPool& pool, std::uint64_t hash) { Access::prefetch_bytes(pool, hash); }

/// The profile as built so far (its tables grow as the builder adds; a
/// reference stays valid, its spans and pointers do not).
inline const Profile& peek(const ProfileBuilder& b) { return Access::profile(b); }

/// Expects up to about `n` stacks (a hint from the input size): reserves
/// capacity so the stack table does not grow, and copy itself, while
/// reading. Capacity never used is never written, so it costs address
/// space, not memory.
inline void reserve_stacks(ProfileBuilder& b, std::size_t n) { Access::reserve_stacks(b, n); }

/// The stack `parent` extended by `frame` when it was made already, else
/// kNoId<StackId>; makes nothing. For a reader that looks up many stacks
/// ahead of making them (prefetch_stack()).
inline StackId find_stack(const ProfileBuilder& b, StackId parent, FrameId frame) {
  return Access::find_stack(b, parent, frame);
}

/// The stack `parent` extended by `frames`, root-most first: b.stack() of
/// each in turn. Once a frame makes a new node the rest are new too, each
/// the only child of the one before: they are made in one run. Throws Error
/// past 2^32 - 2 stacks.
inline StackId extend(ProfileBuilder& b, StackId parent, std::span<const FrameId> frames) {
  return Access::extend(b, parent, frames);
}

/// A cache hint for a coming b.stack(parent, frame): a reader that makes
/// several stacks at once fetches each one's next lookup ahead.
inline void prefetch_stack(const ProfileBuilder& b, StackId parent, FrameId frame) {
  Access::prefetch_stack(b, parent, frame);
}

/// A cache hint for a coming untimed b.add_sample(stack, ..., labels): a
/// reader adding millions of samples calls it a few samples ahead.
inline void prefetch_sample(const ProfileBuilder& b, StackId stack, LabelSetId labels) {
  Access::prefetch_sample(b, stack, labels);
}

/// A second hint, some samples after prefetch_sample(b, stack, {}): the
/// values of the stack's unlabeled sample, which the first one found.
inline void prefetch_unlabeled_values(const ProfileBuilder& b, StackId stack) {
  Access::prefetch_unlabeled_values(b, stack);
}

/// A cache hint for a coming p.stack(id) or p.parent(id).
inline void prefetch_stack(const Profile& p, StackId id) { Access::prefetch_stack(p, id); }

/// std::move(b).finish(), with stack s given frames[s] in place of the
/// frame it was made with (one per stack, the root's ignored): for a reader
/// that makes stacks of stand-in frames and learns their real ones only at
/// the end. The caller keeps the frames of a stack's children distinct.
/// Throws Error when `frames` has not one frame per stack, or names a frame
/// the builder did not make. The builder must not be used afterwards.
inline Profile finish(ProfileBuilder&& b, std::span<const FrameId> frames) {
  return Access::finish(std::move(b), frames);
}

}  // namespace fg::bulk
