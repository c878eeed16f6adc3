"""Expected output of sessions_by_plan.sql: the sessions of click_sessions.py (same gap rule,
recomputed here so this script stands alone), joined to users and grouped by plan."""

from datetime import timedelta

from _common import load, partitions, write

NAME = "sessions_by_plan"
COLUMNS = ["plan", "sessions", "users", "events", "avg_events_per_session", "longest_session_s",
           "purchases"]


def compute() -> list[tuple]:
    plan_of = {u["user_id"]: u["plan"] for u in load("users")}
    per_plan: dict[str, list[tuple[str, list[dict]]]] = {}
    for user, rows in partitions(load("clicks"), "user_id", "ts"):
        sessions: list[list[dict]] = []
        for r in rows:
            if sessions and r["ts"] < sessions[-1][-1]["ts"] + timedelta(minutes=30):
                sessions[-1].append(r)
            else:
                sessions.append([r])
        if user in plan_of:  # inner join
            per_plan.setdefault(plan_of[user], []).extend((user, s) for s in sessions)
    out = []
    for plan in sorted(per_plan):
        ss = per_plan[plan]
        events = [len(s) for _, s in ss]
        out.append((plan, len(ss), len({u for u, _ in ss}), sum(events),
                    sum(events) / len(events),
                    max(int((s[-1]["ts"] - s[0]["ts"]).total_seconds()) for _, s in ss),
                    sum(1 for _, s in ss for r in s if r["page"] == "purchase")))
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
