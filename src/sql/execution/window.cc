// Window functions (OVER …): gathers its input (counted against the memory
// budget), then, for each set of windows sharing PARTITION BY and ORDER BY,
// sorts row indices by the partition keys and then the order keys (stable;
// PostgreSQL's orderings) and computes each function partition by
// partition. Rows are peers when their order keys are equal (all rows of a
// partition without ORDER BY). Output: the input's columns and one column
// per window, in the order of the last sort.
//
// Frames (ROWS / RANGE / GROUPS, offsets included) are computed per row as
// [start, end) positions in the sorted partition; aggregates move one state
// along the partition: rows entering are added and, for invertible
// aggregates (count, integer and numeric sum/avg), rows leaving are taken
// out, so cumulative and sliding frames are O(n). Other aggregates restart
// when the frame's start moves (frames ending at UNBOUNDED FOLLOWING run
// backwards instead, so they stay O(n)).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

#include "columnar/builder.h"
#include "columnar/concat.h"
#include "columnar/slice.h"
#include "columnar/take.h"
#include "sql/execution/aggregate_state.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/function/aggregate_function.h"
#include "sql/function/compare_values.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

constexpr int64_t kMorselRows = 8192;

bool IsNegative(const Value& v) {
  switch (v.type.id) {
    case SqlTypeId::kNumeric:
      return v.n < 0;
    case SqlTypeId::kReal:
    case SqlTypeId::kDouble:
      return v.d < 0 || std::isnan(v.d);
    case SqlTypeId::kInterval: {
      int32_t months, days;
      int64_t micros;
      std::memcpy(&months, v.s.data(), 4);
      std::memcpy(&days, v.s.data() + 4, 4);
      std::memcpy(&micros, v.s.data() + 8, 8);
      return (static_cast<__int128>(months) * 30 + days) * 86400000000LL + micros < 0;
    }
    default:
      return v.i < 0;
  }
}

Status CheckOffset(const BoundWindow& w, FrameBound bound, const Value& offset, bool start) {
  if (bound != FrameBound::kPreceding && bound != FrameBound::kFollowing) return Status::Ok();
  const char* which = start ? "starting" : "ending";
  if (offset.is_null) {
    return SqlError(SqlErrorKind::kNullValueNotAllowed, "frame ", which,
                    " offset must not be null");
  }
  if (IsNegative(offset)) {
    if (w.frame.unit == FrameUnit::kRange) {
      return SqlError(SqlErrorKind::kInvalidPrecedingOrFollowingSize,
                      "invalid preceding or following size in window function");
    }
    return SqlError(SqlErrorKind::kInvalidPrecedingOrFollowingSize, "frame ", which,
                    " offset must not be negative");
  }
  return Status::Ok();
}

// The sorted rows of one set of windows: perm[p] is the input row at sorted
// position p; partitions and peer groups as position ranges.
struct Layout {
  std::vector<int64_t> perm;
  std::vector<int64_t> partition_starts;      // with n at the end
  std::vector<int64_t> peer_start, peer_end;  // per position
  std::vector<int64_t> group;                 // peer group index within the partition
  std::vector<int64_t> group_starts;          // per partition, concatenated; see group_base
  std::vector<int64_t> group_base;            // per partition: its first entry in group_starts
};

// One window function over one Layout.
class WindowComputer {
 public:
  WindowComputer(const BoundWindow& w, const Layout& layout, const columnar::RecordBatch& all,
                 ExecContext& ctx)
      : w_(w), l_(layout), all_(all), ctx_(ctx) {}

  // The window's values in sorted-position order.
  Result<ArrayPtr> Run() {
    for (const BoundExprPtr& a : w_.args) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v, Evaluate(*a, all_));
      args_.push_back(std::move(v));
    }
    if (w_.kind == WindowFunctionKind::kAggregate) {
      if (!w_.aggregate.args.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(agg_arg_, Evaluate(*w_.aggregate.args[0], all_));
      }
      if (w_.aggregate.filter) {
        HOGLAKE_ASSIGN_OR_RETURN(filter_, Evaluate(*w_.aggregate.filter, all_));
      }
    }
    if (w_.frame.range_key) {
      HOGLAKE_ASSIGN_OR_RETURN(range_key_, Evaluate(*w_.frame.range_key, all_));
      if (w_.frame.start_value) {
        HOGLAKE_ASSIGN_OR_RETURN(start_value_, Evaluate(*w_.frame.start_value, all_));
      }
      if (w_.frame.end_value) {
        HOGLAKE_ASSIGN_OR_RETURN(end_value_, Evaluate(*w_.frame.end_value, all_));
      }
    }
    const int64_t n = static_cast<int64_t>(l_.perm.size());
    values_.assign(static_cast<size_t>(n), Value::Null(w_.type));
    for (size_t i = 0; i + 1 < l_.partition_starts.size(); ++i) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_RETURN_IF_ERROR(Partition(i, l_.partition_starts[i], l_.partition_starts[i + 1]));
    }
    std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(w_.type));
    for (const Value& v : values_) HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
    values_.clear();
    return builder->Finish();
  }

 private:
  Value At(const ArrayPtr& array, const SqlType& type, int64_t position) const {
    return ValueAt(*array, l_.perm[position], type);
  }

  // [*fs, *fe): the frame of the row at position p of partition [ps, pe).
  void Frame(size_t part, int64_t p, int64_t ps, int64_t pe, int64_t* fs, int64_t* fe) const {
    const WindowFrame& f = w_.frame;
    *fs = Bound(f.start, f.start_offset, true, part, p, ps, pe);
    *fe = Bound(f.end, f.end_offset, false, part, p, ps, pe);
    *fs = std::clamp(*fs, ps, pe);
    *fe = std::clamp(*fe, *fs, pe);
  }

  int64_t Bound(FrameBound bound, const Value& offset, bool start, size_t part, int64_t p,
                int64_t ps, int64_t pe) const {
    switch (bound) {
      case FrameBound::kUnboundedPreceding:
        return ps;
      case FrameBound::kUnboundedFollowing:
        return pe;
      case FrameBound::kCurrentRow:
        if (w_.frame.unit == FrameUnit::kRows) return start ? p : p + 1;
        return start ? l_.peer_start[p] : l_.peer_end[p];
      case FrameBound::kPreceding:
      case FrameBound::kFollowing:
        break;
    }
    const bool preceding = bound == FrameBound::kPreceding;
    if (w_.frame.unit == FrameUnit::kRows) {
      const int64_t off = offset.i;
      if (preceding) {
        if (off > p - ps) return ps;
        return start ? p - off : p - off + 1;
      }
      if (off > pe - p) return pe;
      return start ? p + off : std::min(pe, p + off + 1);
    }
    if (w_.frame.unit == FrameUnit::kGroups) {
      const int64_t off = offset.i;
      const int64_t base = l_.group_base[part];
      const int64_t groups = l_.group_base[part + 1] - base - 1;  // entries hold an end marker
      const int64_t g = l_.group[p];
      int64_t target;
      if (preceding) {
        if (off > g) return ps;
        target = g - off;
      } else {
        if (off >= groups - g) return pe;
        target = g + off;
      }
      return start ? l_.group_starts[base + target] : l_.group_starts[base + target + 1];
    }
    // RANGE with an offset: by the key's value; a NULL key's frame is its peers.
    const int64_t row = l_.perm[p];
    if (range_key_->IsNull(row)) return start ? l_.peer_start[p] : l_.peer_end[p];
    const ArrayData& bound_value = start ? *start_value_ : *end_value_;
    const SqlType& key_type = w_.frame.range_key->type;
    const SqlType& value_type = start ? w_.frame.start_value->type : w_.frame.end_value->type;
    const bool desc = w_.order_by[0].descending;
    const bool nulls_first = w_.order_by[0].nulls_first;
    int64_t lo = ps, hi = pe;
    // start: the first position not before the bound; end: the first after it.
    auto past = [&](int64_t q) {
      const int64_t r = l_.perm[q];
      // NULLs sort first (before every bound) or last (after every bound).
      if (range_key_->IsNull(r)) return !nulls_first;
      int c = CompareValues(*range_key_, r, key_type, bound_value, row, value_type);
      if (desc) c = -c;
      return start ? c >= 0 : c > 0;
    };
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (past(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  Status Partition(size_t part, int64_t ps, int64_t pe) {
    const int64_t rows = pe - ps;
    switch (w_.kind) {
      case WindowFunctionKind::kRowNumber:
        for (int64_t p = ps; p < pe; ++p)
          values_[p] = Value::Integer(SqlTypeId::kBigint, p - ps + 1);
        return Status::Ok();
      case WindowFunctionKind::kRank:
        for (int64_t p = ps; p < pe; ++p) {
          values_[p] = Value::Integer(SqlTypeId::kBigint, l_.peer_start[p] - ps + 1);
        }
        return Status::Ok();
      case WindowFunctionKind::kDenseRank:
        for (int64_t p = ps; p < pe; ++p)
          values_[p] = Value::Integer(SqlTypeId::kBigint, l_.group[p] + 1);
        return Status::Ok();
      case WindowFunctionKind::kPercentRank:
        for (int64_t p = ps; p < pe; ++p) {
          double v =
              rows > 1 ? static_cast<double>(l_.peer_start[p] - ps) / static_cast<double>(rows - 1)
                       : 0.0;
          values_[p] = Value::Double(SqlTypeId::kDouble, v);
        }
        return Status::Ok();
      case WindowFunctionKind::kCumeDist:
        for (int64_t p = ps; p < pe; ++p) {
          values_[p] = Value::Double(SqlTypeId::kDouble, static_cast<double>(l_.peer_end[p] - ps) /
                                                             static_cast<double>(rows));
        }
        return Status::Ok();
      case WindowFunctionKind::kNtile:
        return Ntile(ps, pe);
      case WindowFunctionKind::kLag:
      case WindowFunctionKind::kLead:
        return LagLead(ps, pe);
      case WindowFunctionKind::kFirstValue:
      case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
        return FrameValue(part, ps, pe);
      case WindowFunctionKind::kAggregate:
        return Aggregate(part, ps, pe);
    }
    return Internal("window function kind");
  }

  Status Ntile(int64_t ps, int64_t pe) {
    // The bucket count is read once per partition, at its first row.
    Value buckets = At(args_[0], w_.args[0]->type, ps);
    if (buckets.is_null) return Status::Ok();
    if (buckets.i <= 0) {
      return SqlError(SqlErrorKind::kInvalidNtileArgument,
                      "argument of ntile must be greater than zero");
    }
    const int64_t rows = pe - ps;
    const int64_t per = rows / buckets.i, extra = rows % buckets.i;
    int64_t bucket = 1, left = per + (extra > 0 ? 1 : 0);
    for (int64_t p = ps; p < pe; ++p) {
      if (left == 0) {
        ++bucket;
        left = per + (bucket <= extra ? 1 : 0);
      }
      values_[p] = Value::Integer(SqlTypeId::kInteger, bucket);
      --left;
    }
    return Status::Ok();
  }

  Status LagLead(int64_t ps, int64_t pe) {
    const bool lag = w_.kind == WindowFunctionKind::kLag;
    for (int64_t p = ps; p < pe; ++p) {
      int64_t offset = 1;
      if (args_.size() > 1) {
        Value o = At(args_[1], w_.args[1]->type, p);
        if (o.is_null) continue;
        offset = o.i;
      }
      const __int128 target = static_cast<__int128>(p) + (lag ? -offset : offset);
      if (target >= ps && target < pe) {
        values_[p] = At(args_[0], w_.args[0]->type, static_cast<int64_t>(target));
      } else if (args_.size() > 2) {
        values_[p] = At(args_[2], w_.args[2]->type, p);
      }
      values_[p].type = w_.type;
    }
    return Status::Ok();
  }

  Status FrameValue(size_t part, int64_t ps, int64_t pe) {
    for (int64_t p = ps; p < pe; ++p) {
      int64_t fs, fe;
      Frame(part, p, ps, pe, &fs, &fe);
      int64_t at;
      if (w_.kind == WindowFunctionKind::kNthValue) {
        Value nth = At(args_[1], w_.args[1]->type, p);
        if (nth.is_null) continue;
        if (nth.i <= 0) {
          return SqlError(SqlErrorKind::kInvalidNthValueArgument,
                          "argument of nth_value must be greater than zero");
        }
        if (nth.i > fe - fs) continue;
        at = fs + nth.i - 1;
      } else {
        if (fs >= fe) continue;
        at = w_.kind == WindowFunctionKind::kFirstValue ? fs : fe - 1;
      }
      values_[p] = At(args_[0], w_.args[0]->type, at);
      values_[p].type = w_.type;
    }
    return Status::Ok();
  }

  bool Counts(int64_t position) const { return !filter_ || IsTrueAt(*filter_, l_.perm[position]); }
  static bool IsTrueAt(const ArrayData& a, int64_t i) { return a.IsValid(i) && a.GetBool(i); }

  Status Add(AggState& st, int64_t position) {
    // Restarted frames can cost O(n·frame): check for cancellation by work done.
    if ((++work_ & 0xFFFF) == 0) HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
    if (!Counts(position)) return Status::Ok();
    return Update(w_.aggregate, st, agg_arg_.get(), l_.perm[position]);
  }

  Status Aggregate(size_t part, int64_t ps, int64_t pe) {
    const BoundAggregate& agg = w_.aggregate;
    const bool invertible = IsInvertible(agg);
    const bool backwards = !invertible && w_.frame.end == FrameBound::kUnboundedFollowing &&
                           w_.frame.start != FrameBound::kUnboundedPreceding;
    AggState st;
    int64_t cs = backwards ? pe : ps, ce = backwards ? pe : ps;  // the state's rows [cs, ce)
    for (int64_t i = 0; i < pe - ps; ++i) {
      const int64_t p = backwards ? pe - 1 - i : ps + i;
      int64_t fs, fe;
      Frame(part, p, ps, pe, &fs, &fe);
      if (backwards) {
        // Frames [fs, pe) with fs moving back: add the rows before the state's.
        if (fe != ce || fs > cs) {
          st = AggState{};
          cs = ce = fe;
        }
        for (int64_t q = cs - 1; q >= fs; --q) HOGLAKE_RETURN_IF_ERROR(Add(st, q));
        cs = std::min(cs, fs);
      } else if (fs == cs && fe >= ce) {
        for (int64_t q = ce; q < fe; ++q) HOGLAKE_RETURN_IF_ERROR(Add(st, q));
        ce = fe;
      } else if (invertible && fs >= cs && fs <= ce && fe >= ce) {
        for (int64_t q = cs; q < fs; ++q) {
          if (Counts(q)) Remove(agg, st, agg_arg_.get(), l_.perm[q]);
        }
        for (int64_t q = ce; q < fe; ++q) HOGLAKE_RETURN_IF_ERROR(Add(st, q));
        cs = fs;
        ce = fe;
      } else {
        st = AggState{};
        for (int64_t q = fs; q < fe; ++q) HOGLAKE_RETURN_IF_ERROR(Add(st, q));
        cs = fs;
        ce = fe;
      }
      HOGLAKE_ASSIGN_OR_RETURN(values_[p], Finalize(agg, st));
    }
    return Status::Ok();
  }

  const BoundWindow& w_;
  const Layout& l_;
  const columnar::RecordBatch& all_;
  ExecContext& ctx_;
  std::vector<ArrayPtr> args_;
  ArrayPtr agg_arg_, filter_, range_key_, start_value_, end_value_;
  std::vector<Value> values_;
  int64_t work_ = 0;
};

class WindowOperator : public PhysicalOperator {
 public:
  WindowOperator(const LogicalOp& plan, ExecContext& ctx, Children children)
      : PhysicalOperator(plan), ctx_(ctx) {
    children_ = std::move(children);
  }
  ~WindowOperator() override { ctx_.Release(held_); }

 protected:
  Result<std::optional<columnar::RecordBatch>> NextImpl() override {
    if (!computed_) {
      HOGLAKE_RETURN_IF_ERROR(Compute());
      computed_ = true;
    }
    if (position_ >= result_.num_rows) return EndOfStream();
    int64_t length = std::min(kMorselRows, result_.num_rows - position_);
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch out,
                             columnar::SliceBatch(result_, position_, length));
    position_ += length;
    out.schema = schema_;
    return Emit(std::move(out));
  }

 private:
  Status Hold(int64_t bytes) {
    HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
    held_ += bytes;
    return Status::Ok();
  }

  Status Compute() {
    // Frame offsets are checked as the run starts, rows or not (PostgreSQL's order).
    for (const BoundWindow& w : plan_.windows) {
      HOGLAKE_RETURN_IF_ERROR(CheckOffset(w, w.frame.start, w.frame.start_offset, true));
      HOGLAKE_RETURN_IF_ERROR(CheckOffset(w, w.frame.end, w.frame.end_offset, false));
    }
    std::vector<columnar::RecordBatch> batches;
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, children_[0]->Next());
      if (!batch) break;
      HOGLAKE_RETURN_IF_ERROR(Hold(BatchBytes(*batch)));
      batches.push_back(std::move(*batch));
    }
    if (batches.empty()) return Status::Ok();
    HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch all, columnar::ConcatBatches(batches));
    batches.clear();
    const int64_t n = all.num_rows;
    std::vector<ArrayPtr> results(plan_.windows.size());
    // Windows sharing PARTITION BY and ORDER BY share one sort.
    std::vector<std::string> specs;
    std::map<std::string, std::vector<size_t>> by_spec;
    for (size_t i = 0; i < plan_.windows.size(); ++i) {
      std::string key = plan_.windows[i].SpecKey();
      if (by_spec.find(key) == by_spec.end()) specs.push_back(key);
      by_spec[key].push_back(i);
    }
    std::vector<int64_t> last_perm;
    for (const std::string& spec : specs) {
      const std::vector<size_t>& members = by_spec[spec];
      HOGLAKE_RETURN_IF_ERROR(Hold(n * static_cast<int64_t>(64 + sizeof(Value))));
      HOGLAKE_ASSIGN_OR_RETURN(Layout layout, Sort(plan_.windows[members[0]], all));
      std::vector<int64_t> inverse(static_cast<size_t>(n));
      for (int64_t p = 0; p < n; ++p) inverse[layout.perm[p]] = p;
      for (size_t i : members) {
        WindowComputer computer(plan_.windows[i], layout, all, ctx_);
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr sorted, computer.Run());
        HOGLAKE_ASSIGN_OR_RETURN(results[i], columnar::TakeRows(*sorted, inverse));
        HOGLAKE_RETURN_IF_ERROR(Hold(ArrayBytes(*results[i])));
      }
      last_perm = std::move(layout.perm);
    }
    std::vector<ArrayPtr> columns = all.columns;
    for (ArrayPtr& r : results) columns.push_back(std::move(r));
    columnar::RecordBatch out = MakeBatch(std::move(columns), n);
    HOGLAKE_ASSIGN_OR_RETURN(result_, columnar::TakeRows(out, last_perm));
    return Hold(BatchBytes(result_));
  }

  Result<Layout> Sort(const BoundWindow& w, const columnar::RecordBatch& all) {
    const int64_t n = all.num_rows;
    std::vector<ArrayPtr> parts, orders;
    for (const BoundExprPtr& e : w.partition_by) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr a, Evaluate(*e, all));
      parts.push_back(std::move(a));
    }
    for (const SortKey& k : w.order_by) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr a, Evaluate(*k.expr, all));
      orders.push_back(std::move(a));
    }
    // Negative, 0, positive as row a sorts before, with, after row b.
    auto compare = [&](const ArrayPtr& col, const SqlType& type, bool desc, bool nulls_first,
                       int64_t a, int64_t b) {
      bool an = col->IsNull(a), bn = col->IsNull(b);
      if (an || bn) {
        if (an == bn) return 0;
        return an == nulls_first ? -1 : 1;
      }
      int c = CompareValues(*col, a, type, *col, b, type);
      return desc ? -c : c;
    };
    auto partition_compare = [&](int64_t a, int64_t b) {
      for (size_t k = 0; k < parts.size(); ++k) {
        int c = compare(parts[k], w.partition_by[k]->type, false, false, a, b);
        if (c != 0) return c;
      }
      return 0;
    };
    auto order_compare = [&](int64_t a, int64_t b) {
      for (size_t k = 0; k < orders.size(); ++k) {
        const SortKey& key = w.order_by[k];
        int c = compare(orders[k], key.expr->type, key.descending, key.nulls_first, a, b);
        if (c != 0) return c;
      }
      return 0;
    };
    Layout l;
    l.perm.resize(static_cast<size_t>(n));
    std::iota(l.perm.begin(), l.perm.end(), 0);
    if (!parts.empty() || !orders.empty()) {
      std::stable_sort(l.perm.begin(), l.perm.end(), [&](int64_t a, int64_t b) {
        int c = partition_compare(a, b);
        if (c != 0) return c < 0;
        return order_compare(a, b) < 0;
      });
    }
    HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
    l.peer_start.resize(static_cast<size_t>(n));
    l.peer_end.resize(static_cast<size_t>(n));
    l.group.resize(static_cast<size_t>(n));
    int64_t peer = 0, group = 0;
    for (int64_t p = 0; p < n; ++p) {
      const bool new_partition = p == 0 || partition_compare(l.perm[p - 1], l.perm[p]) != 0;
      if (new_partition) {
        if (p > 0) l.group_starts.push_back(p);  // the previous partition's end marker
        l.partition_starts.push_back(p);
        l.group_base.push_back(static_cast<int64_t>(l.group_starts.size()));
        group = 0;
        peer = p;
        l.group_starts.push_back(p);
      } else if (order_compare(l.perm[p - 1], l.perm[p]) != 0) {
        ++group;
        peer = p;
        l.group_starts.push_back(p);
      }
      l.peer_start[p] = peer;
      l.group[p] = group;
    }
    l.group_starts.push_back(n);
    l.partition_starts.push_back(n);
    l.group_base.push_back(static_cast<int64_t>(l.group_starts.size()));
    int64_t end = n;
    for (int64_t p = n - 1; p >= 0; --p) {
      l.peer_end[p] = end;
      if (l.peer_start[p] == p) end = p;
    }
    return l;
  }

  ExecContext& ctx_;
  bool computed_ = false;
  columnar::RecordBatch result_;
  int64_t position_ = 0;
  int64_t held_ = 0;
};

}  // namespace

Result<OperatorPtr> MakeWindowOperator(const LogicalOp& plan, ExecContext& ctx, Children children) {
  return OperatorPtr(new WindowOperator(plan, ctx, std::move(children)));
}

}  // namespace hoglake::sql
