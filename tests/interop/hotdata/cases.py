"""The workload's ibis expressions, one function per case.

Each case takes a namespace with the three tables (`t.customer`, `t.orders`,
`t.lineitem`) and returns an ibis expression. test_workload.py builds it
once over hoglake (hotdata-ibis) and once over ibis's DuckDB backend reading
the same Parquet files, executes both and compares. A case is `ordered` when
its expression defines a total order (then rows are compared in order);
otherwise both sides are sorted first. `via` picks the materialisation:
`execute` (pandas) or `pyarrow` (`to_pyarrow`, which also compares the Arrow
column types). `rel_tol` loosens float comparison for statistics whose last
digits depend on summation order.

Expressions use only API that ibis-framework 10.x and 12.x both have.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Callable

import ibis


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable
    ordered: bool = False
    via: str = "execute"
    rel_tol: float = 1e-9
    # A SQL feature hoglake does not have yet (docs/sql.md): the server must
    # refuse the query with an error naming it, never answer wrongly. The
    # test fails once the feature works, so the marker goes with the gap.
    refused: str | None = None
    # For an array subscript: ibis-framework before 12 (hotdata-ibis
    # 0.1.1's generation) compiles `arr[i]` for Postgres with ibis's 0-based
    # index unchanged, so `split(" ")[0]` is sent as
    # `(STRING_TO_ARRAY(…))[0]`, which PostgreSQL — and so hoglake — answers
    # with NULL. Under such an ibis this expression, built on the DuckDB
    # side, gives PostgreSQL's answer to the SQL actually sent.
    zero_based_answer: Callable | None = None


def ibis_subscripts_zero_based() -> bool:
    """Whether this ibis sends 0-based array subscripts to Postgres."""
    return int(ibis.__version__.split(".")[0]) < 12


CASES: list[Case] = []


def case(*, ordered: bool = False, via: str = "execute", rel_tol: float = 1e-9,
         refused: str | None = None, zero_based_answer: Callable | None = None):
    def register(fn):
        CASES.append(Case(fn.__name__, fn, ordered, via, rel_tol, refused, zero_based_answer))
        return fn

    return register


# --- filters, projections, limits -------------------------------------------


@case()
def filter_string_equals(t):
    c = t.customer
    return c.filter(c.c_mktsegment == "AUTOMOBILE").select("c_custkey", "c_name", "c_acctbal")


@case(via="pyarrow")
def filter_decimal_range(t):
    o = t.orders
    return o.filter((o.o_totalprice > 1000) & (o.o_totalprice <= 50000)).select(
        "o_orderkey", "o_totalprice", "o_orderdate")


@case()
def filter_isin_list(t):
    o = t.orders
    return o.filter(o.o_orderpriority.isin(["1-URGENT", "2-HIGH"])).select(
        "o_orderkey", "o_orderpriority")


@case()
def filter_notin_list(t):
    o = t.orders
    return o.filter(o.o_orderstatus.notin(["F", "P"])).select("o_orderkey", "o_orderstatus")


@case()
def filter_isnull(t):
    c = t.customer
    return c.filter(c.c_acctbal.isnull()).select("c_custkey", "c_mktsegment")


@case()
def filter_or_and_notnull(t):
    c = t.customer
    return c.filter(((c.c_nationkey < 5) | (c.c_score > 100)) & c.c_phone.notnull()).select(
        "c_custkey", "c_nationkey", "c_score")


@case()
def filter_negation(t):
    l = t.lineitem
    return l.filter(~(l.l_shipmode.isin(["AIR", "RAIL"]) | (l.l_quantity > 10))).select(
        "l_orderkey", "l_linenumber", "l_shipmode", "l_quantity")


@case(via="pyarrow")
def filter_date_between(t):
    o = t.orders
    return o.filter(o.o_orderdate.between(dt.date(1995, 1, 1), dt.date(1995, 12, 31))).select(
        "o_orderkey", "o_orderdate")


@case(via="pyarrow")
def filter_timestamp_after(t):
    o = t.orders
    return o.filter(o.o_created_ts > dt.datetime(1997, 6, 30, 12, 0, 0)).select(
        "o_orderkey", "o_created_ts")


@case(via="pyarrow")
def filter_timestamptz_after(t):
    o = t.orders
    cutoff = dt.datetime(1996, 1, 1, tzinfo=dt.timezone.utc)
    return o.filter(o.o_updated_tstz >= cutoff).select("o_orderkey", "o_updated_tstz")


@case()
def filter_like(t):
    c = t.customer
    return c.filter(c.c_name.like("Customer#0000001%")).select("c_custkey", "c_name")


@case()
def filter_ilike(t):
    l = t.lineitem
    return l.filter(l.l_comment.ilike("%regular%")).select("l_orderkey", "l_linenumber", "l_comment")


@case()
def filter_boolean_column(t):
    c = t.customer
    return c.filter(c.c_active).select("c_custkey", "c_active")


@case()
def select_distinct(t):
    o = t.orders
    return o.select("o_orderstatus", "o_orderpriority").distinct()


@case(ordered=True)
def order_limit_offset(t):
    o = t.orders
    return o.order_by("o_orderkey").limit(10, offset=20).select("o_orderkey", "o_custkey")


@case(ordered=True, via="pyarrow")
def order_by_desc_with_tiebreak(t):
    o = t.orders
    return (o.filter(o.o_totalprice.notnull())
            .order_by([ibis.desc("o_totalprice"), "o_orderkey"])
            .limit(25)
            .select("o_orderkey", "o_totalprice", "o_orderdate"))


@case(ordered=True)
def order_by_nullable_nulls_first(t):
    c = t.customer
    return (c.order_by([c.c_acctbal.asc(nulls_first=True), c.c_custkey])
            .limit(40)
            .select("c_custkey", "c_acctbal"))


@case(ordered=True)
def order_by_expression(t):
    c = t.customer
    return (c.mutate(name_len=c.c_comment.length())
            .order_by([ibis.desc("name_len"), "c_custkey"])
            .limit(30)
            .select("c_custkey", "name_len"))


# --- aggregates --------------------------------------------------------------


@case()
def count_rows(t):
    return t.lineitem.count()


@case()
def count_non_null_and_distinct(t):
    o = t.orders
    return o.aggregate(n=o.count(), with_cust=o.o_custkey.count(), customers=o.o_custkey.nunique())


@case()
def tpch_q1_pricing_summary(t):
    l = t.lineitem
    l = l.filter(l.l_shipdate <= dt.date(1998, 9, 2))
    disc_price = l.l_extendedprice * (1 - l.l_discount)
    return (l.group_by(["l_returnflag", "l_linestatus"])
            .aggregate(sum_qty=l.l_quantity.sum(),
                       sum_base_price=l.l_extendedprice.sum(),
                       sum_disc_price=disc_price.sum(),
                       sum_charge=(disc_price * (1 + l.l_tax)).sum(),
                       avg_qty=l.l_quantity.cast("float64").mean(),
                       avg_disc=l.l_discount.cast("float64").mean(),
                       count_order=l.count())
            .order_by(["l_returnflag", "l_linestatus"]))


@case()
def group_having(t):
    o = t.orders
    return (o.group_by("o_custkey").aggregate(n=o.count(), total=o.o_totalprice.sum())
            .filter(lambda r: r.n >= 9))


@case()
def aggregate_with_where(t):
    l = t.lineitem
    return l.group_by("l_shipmode").aggregate(
        returned_qty=l.l_quantity.sum(where=l.l_returnflag == "R"),
        open_lines=l.count(where=l.l_linestatus == "O"))


@case(rel_tol=1e-7)
def float_statistics(t):
    l = t.lineitem
    return l.group_by("l_returnflag").aggregate(
        mean_w=l.l_weight.mean(), std_w=l.l_weight.std(), var_w=l.l_weight.var(how="pop"),
        min_w=l.l_weight.min(), max_w=l.l_weight.max())


@case(via="pyarrow")
def min_max_dates_timestamps(t):
    o = t.orders
    return o.aggregate(first_day=o.o_orderdate.min(), last_day=o.o_orderdate.max(),
                       first_ts=o.o_created_ts.min(), last_tstz=o.o_updated_tstz.max())


@case()
def min_max_strings(t):
    c = t.customer
    return c.group_by("c_mktsegment").aggregate(lo=c.c_name.min(), hi=c.c_comment.max())


@case()
def group_by_year(t):
    o = t.orders
    return o.group_by(year=o.o_orderdate.year()).aggregate(n=o.count(), revenue=o.o_totalprice.sum())


@case()
def value_counts(t):
    return t.orders.o_orderpriority.value_counts()


@case(ordered=True)
def topk_clerks(t):
    o = t.orders
    return (o.group_by("o_clerk").aggregate(n=o.count())
            .order_by([ibis.desc("n"), "o_clerk"]).limit(5))


@case(rel_tol=1e-7)
def median_and_mean_of_double(t):
    c = t.customer
    return c.group_by("c_mktsegment").aggregate(med=c.c_score.median(), avg=c.c_score.mean())


@case()
def scalar_subquery_filter(t):
    o = t.orders
    return o.filter(o.o_totalprice > o.o_totalprice.mean()).select("o_orderkey", "o_totalprice")


@case()
def isin_subquery(t):
    o, c = t.orders, t.customer
    building = c.filter(c.c_mktsegment == "BUILDING").c_custkey
    return o.filter(o.o_custkey.isin(building)).select("o_orderkey", "o_custkey")


# --- joins -------------------------------------------------------------------


@case()
def inner_join(t):
    c, o = t.customer, t.orders
    return c.join(o, c.c_custkey == o.o_custkey).select(c.c_name, o.o_orderkey, o.o_totalprice)


@case()
def left_join_missing_customers(t):
    c, o = t.customer, t.orders
    return o.left_join(c, o.o_custkey == c.c_custkey).select(
        o.o_orderkey, o.o_custkey, c.c_name, c.c_mktsegment)


@case()
def join_then_group(t):
    c, o = t.customer, t.orders
    j = c.join(o, c.c_custkey == o.o_custkey)
    return j.group_by(j.c_mktsegment).aggregate(orders=j.count(), revenue=j.o_totalprice.sum())


@case(ordered=True)
def tpch_q3_shipping_priority(t):
    c, o, l = t.customer, t.orders, t.lineitem
    j = (c.filter(c.c_mktsegment == "BUILDING")
         .join(o, c.c_custkey == o.o_custkey)
         .join(l, o.o_orderkey == l.l_orderkey))
    j = j.filter([j.o_orderdate < dt.date(1995, 3, 15), j.l_shipdate > dt.date(1995, 3, 15)])
    return (j.group_by(["l_orderkey", "o_orderdate", "o_shippriority"])
            .aggregate(revenue=(j.l_extendedprice * (1 - j.l_discount)).sum())
            .order_by([ibis.desc("revenue"), "o_orderdate", "l_orderkey"])
            .limit(10))


@case()
def semi_join(t):
    c, o = t.customer, t.orders
    return c.semi_join(o.filter(o.o_orderstatus == "P"), c.c_custkey == o.o_custkey).select(
        "c_custkey", "c_name")


@case()
def anti_join(t):
    c, o = t.customer, t.orders
    return c.anti_join(o, c.c_custkey == o.o_custkey).select("c_custkey", "c_name")


@case()
def join_on_two_keys(t):
    o, l = t.orders, t.lineitem
    firsts = l.filter(l.l_linenumber == 1)
    return o.join(firsts, [o.o_orderkey == firsts.l_orderkey,
                           o.o_shippriority == firsts.l_linenumber - 1]).select(
        o.o_orderkey, firsts.l_partkey)


@case()
def union_all(t):
    o = t.orders
    a = o.filter(o.o_orderstatus == "P").select("o_orderkey", "o_orderstatus")
    b = o.filter(o.o_shippriority == 2).select("o_orderkey", "o_orderstatus")
    return a.union(b, distinct=False)


@case()
def union_distinct(t):
    o = t.orders
    a = o.filter(o.o_orderstatus == "P").select("o_custkey")
    b = o.filter(o.o_shippriority == 2).select("o_custkey")
    return a.union(b, distinct=True)


@case()
def intersect_and_difference(t):
    o = t.orders
    p = o.filter(o.o_orderstatus == "P").select("o_custkey")
    urgent = o.filter(o.o_orderpriority == "1-URGENT").select("o_custkey")
    return p.intersect(urgent).union(p.difference(urgent).mutate(o_custkey=-ibis._.o_custkey))


# --- strings -------------------------------------------------------------------


@case()
def string_case_and_length(t):
    c = t.customer
    return c.select("c_custkey", up=c.c_mktsegment.upper(), low=c.c_comment.lower(),
                    n=c.c_comment.length(), cap=c.c_comment.capitalize())


@case()
def string_substr_left_right(t):
    c = t.customer
    return c.select("c_custkey", mid=c.c_name.substr(9, 4), left=c.c_phone.left(2),
                    right=c.c_phone.right(4))


@case()
def string_concat_and_strip(t):
    c = t.customer
    return c.select("c_custkey", label=c.c_name + " / " + c.c_address.strip(),
                    l=c.c_address.lstrip(), r=c.c_address.rstrip())


@case()
def string_predicates(t):
    l = t.lineitem
    return l.select("l_orderkey", "l_linenumber",
                    has=l.l_comment.contains("final"), sw=l.l_comment.startswith("quick"),
                    ew=l.l_comment.endswith("foxes"))


@case()
def string_replace_and_find(t):
    l = t.lineitem
    return l.select("l_orderkey", "l_linenumber", rep=l.l_shipmode.replace("AIR", "SKY"),
                    pos=l.l_comment.find("deposits"))


@case()
def string_regex_search(t):
    c = t.customer
    return c.filter(c.c_phone.re_search(r"^1[0-5]-")).select("c_custkey", "c_phone")


@case()
def string_pad_and_cast(t):
    o = t.orders
    return o.select("o_orderkey", key_text=o.o_orderkey.cast("string").lpad(8, "0"),
                    prio=o.o_orderpriority.rpad(20, "."))


def _all_in_one_null_group(t):
    l = t.lineitem
    return l.group_by(word=ibis.null().cast("string")).aggregate(n=l.count())


@case(zero_based_answer=_all_in_one_null_group)
def string_group_by_prefix(t):
    l = t.lineitem
    return l.group_by(word=l.l_comment.split(" ")[0]).aggregate(n=l.count())


# --- dates and timestamps ------------------------------------------------------


@case()
def date_parts(t):
    o = t.orders
    d = o.o_orderdate
    return o.select("o_orderkey", y=d.year(), m=d.month(), day=d.day(), q=d.quarter(),
                    dow=d.day_of_week.index(), doy=d.day_of_year())


@case(via="pyarrow")
def date_truncate_month_group(t):
    o = t.orders
    return o.group_by(month=o.o_orderdate.truncate("M")).aggregate(n=o.count())


@case(via="pyarrow")
def date_plus_interval(t):
    o = t.orders
    return o.select("o_orderkey", due=o.o_orderdate + ibis.interval(days=30))


@case()
def date_difference_days(t):
    l = t.lineitem
    return l.select("l_orderkey", "l_linenumber",
                    transit=l.l_receiptdate.delta(l.l_shipdate, unit="day"),
                    late=l.l_receiptdate > l.l_commitdate)


@case(via="pyarrow")
def timestamp_parts_and_truncate(t):
    l = t.lineitem
    ts = l.l_shipped_ts
    return l.select("l_orderkey", "l_linenumber", h=ts.hour(), mi=ts.minute(),
                    hour_start=ts.truncate("h"), day=ts.date())


@case()
def timestamp_strftime_and_epoch(t):
    o = t.orders
    return o.select("o_orderkey", ym=o.o_created_ts.strftime("%Y-%m"),
                    epoch=o.o_created_ts.epoch_seconds())


@case(via="pyarrow")
def interval_literal(t):
    o = t.orders
    return o.select("o_orderkey", grace=ibis.interval(days=3))


@case()
def timestamp_difference_interval(t):
    o = t.orders
    return o.select("o_orderkey",
                    since=o.o_created_ts - ibis.timestamp("1995-01-01 00:00:00"))


@case(via="pyarrow")
def date_literal_and_cast(t):
    o = t.orders
    return o.filter(o.o_created_ts.cast("date") == o.o_orderdate).select(
        "o_orderkey", day=o.o_created_ts.cast("date"))


# --- window functions ------------------------------------------------------------


@case()
def window_row_number(t):
    o = t.orders
    w = ibis.window(group_by="o_custkey", order_by=["o_orderdate", "o_orderkey"])
    return o.select("o_orderkey", "o_custkey", rn=ibis.row_number().over(w))


@case()
def window_rank_dense_rank(t):
    o = t.orders
    w = ibis.window(group_by="o_orderstatus", order_by=ibis.desc("o_shippriority"))
    return o.select("o_orderkey", r=ibis.rank().over(w), dr=ibis.dense_rank().over(w))


@case(via="pyarrow")
def window_cumulative_sum(t):
    o = t.orders
    w = ibis.cumulative_window(group_by="o_custkey", order_by=["o_orderdate", "o_orderkey"])
    return o.select("o_orderkey", "o_custkey", running=o.o_totalprice.sum().over(w))


@case()
def window_cumsum_method(t):
    l = t.lineitem
    return l.select("l_orderkey", "l_linenumber",
                    running=l.l_quantity.cumsum(group_by="l_orderkey", order_by="l_linenumber"))


@case()
def window_lag_lead(t):
    o = t.orders
    w = ibis.window(group_by="o_custkey", order_by="o_orderkey")
    return o.select("o_orderkey", prev=o.o_orderdate.lag().over(w),
                    next=o.o_totalprice.lead().over(w))


@case(rel_tol=1e-7)
def window_moving_average(t):
    l = t.lineitem
    w = ibis.window(group_by="l_orderkey", order_by="l_linenumber", preceding=1, following=0)
    return l.select("l_orderkey", "l_linenumber", mov=l.l_weight.mean().over(w))


@case(rel_tol=1e-7)
def window_share_of_partition(t):
    o = t.orders
    total = o.o_totalprice.sum().over(ibis.window(group_by="o_custkey"))
    return o.select("o_orderkey", share=o.o_totalprice.cast("float64") / total.cast("float64"))


@case()
def window_top_n_per_group(t):
    c = t.customer
    w = ibis.window(group_by="c_mktsegment", order_by=[ibis.desc("c_acctbal"), "c_custkey"])
    ranked = c.filter(c.c_acctbal.notnull()).mutate(rn=ibis.row_number().over(w))
    return ranked.filter(ranked.rn < 3).select("c_mktsegment", "c_custkey", "c_acctbal", "rn")


# --- scalar expressions ------------------------------------------------------------


@case()
def ifelse_and_fill_null(t):
    c = t.customer
    return c.select("c_custkey", bal=c.c_acctbal.fill_null(0),
                    kind=(c.c_acctbal < 0).ifelse("debt", "credit"),
                    seg=c.c_mktsegment.fill_null("UNKNOWN"))


@case()
def cases_expression(t):
    o = t.orders
    bucket = ibis.cases((o.o_totalprice < 10000, "small"), (o.o_totalprice < 100000, "medium"),
                        else_="large")
    return o.group_by(bucket=bucket).aggregate(n=o.count())


@case(rel_tol=1e-7)
def math_functions(t):
    c = t.customer
    s = c.c_score
    return c.select("c_custkey", a=s.abs(), ce=s.ceil(), fl=s.floor(), r=s.round(1),
                    sq=s.abs().sqrt(), p=s.pow(2), ln=(s.abs() + 1).ln())


@case()
def decimal_arithmetic_and_round(t):
    l = t.lineitem
    return l.select("l_orderkey", "l_linenumber",
                    net=l.l_extendedprice * (1 - l.l_discount),
                    taxed=(l.l_extendedprice * (1 + l.l_tax)).round(2),
                    as_double=l.l_extendedprice.cast("float64"))


@case()
def integer_arithmetic(t):
    o = t.orders
    return o.select("o_orderkey", m=o.o_orderkey % 7, d=o.o_orderkey // 7,
                    neg=-o.o_shippriority, prod=o.o_orderkey * o.o_shippriority)


@case()
def greatest_least_nullif(t):
    l = t.lineitem
    return l.select("l_orderkey", "l_linenumber",
                    latest=ibis.greatest(l.l_shipdate, l.l_commitdate),
                    earliest=ibis.least(l.l_shipdate, l.l_receiptdate),
                    disc=l.l_discount.nullif(0))


@case()
def coalesce_columns(t):
    c = t.customer
    return c.select("c_custkey", contact=ibis.coalesce(c.c_phone, c.c_address, "n/a"))


@case(rel_tol=1e-7)
def mutate_then_aggregate(t):
    l = t.lineitem
    m = l.mutate(margin=l.l_extendedprice.cast("float64") * l.l_discount.cast("float64"))
    return m.group_by("l_shipmode").aggregate(total=m.margin.sum(), biggest=m.margin.max())
