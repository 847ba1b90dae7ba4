"""Collective resolution through the whole pipeline (documents, spaCy, the real gate and Neo4j):
a pending pair that waited for context is merged once a later note gives the two sides a
neighbour in common, marked automatic (never learned from as a reviewer's decision), audited,
and undone exactly like any merge. A pair whose context still conflicts stays pending."""

from apps.graph import cypher
from apps.resolution.tenant_model import DECISIONS
from apps.review.services import check_merge_undo
from apps.tenants.models import AuditEvent
from tests.conftest import scope_for


def post(client, text):
    response = client.post("/api/v1/documents?wait=true",
                           {"content": text, "source": "notes"}, format="json")  # fmt: skip
    assert response.status_code in (200, 201), response.content
    return response.json()


def firms(scope, name):
    return cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, status: 'active'}) "
                              "WHERE e.name = $name RETURN e.uid AS uid", name=name)  # fmt: skip


def pending(scope):
    return cypher.read(scope, "MATCH (a:Entity {tenant: $tenant})-[s:SAME_AS {status: 'pending'}]"
                              "->(b:Entity) RETURN a.name AS a, b.name AS b")[0:]  # fmt: skip


def test_a_firms_trade_name_no_other_firm_carries_merges_alone(tenant, api_client):
    post(api_client, "Priya Marchetti joined Larkspur Materials in Porto last spring.")
    last = post(api_client, "Larkspur Materials opened a second site in Bergen.")
    assert len(firms(scope_for(tenant), "Larkspur Materials")) == 1
    [receipt] = [r for r in last["result"]["receipts"] if r.get("name") == "Larkspur Materials"]
    assert receipt["action"] == "merged" and "rare_name firm" in receipt["reason"], receipt


def test_a_later_note_that_joins_two_contexts_merges_the_pending_pair(make_tenant, make_api_client):
    # A tenant whose firm names alone wait for a reviewer (sole_name_merges 0): only context
    # joins the two "Larkspur Materials".
    tenant = make_tenant(sole_name_merges=0)
    api_client = make_api_client(tenant)
    scope = scope_for(tenant)
    post(api_client, "Priya Marchetti joined Larkspur Materials in Porto last spring.")
    post(api_client, "Larkspur Materials opened a second site in Bergen. Carmen Holmgren "
                     "leads the team there.")  # fmt: skip
    assert len(firms(scope, "Larkspur Materials")) == 2  # the same name alone: a reviewer's
    assert any({p["a"], p["b"]} == {"Larkspur Materials"} for p in pending(scope))

    last = post(api_client, "Carmen Holmgren and Priya Marchetti met at Larkspur Materials "
                            "to plan the audit.")  # fmt: skip
    [merge] = [m for m in last["result"]["collective_merges"]
               if m["survivor_name"] == "Larkspur Materials"]  # fmt: skip
    assert "scored" not in merge["reason"] and "-> merge" in merge["reason"]
    assert "context" in merge["reason"]
    assert len(firms(scope, "Larkspur Materials")) == 1
    assert not any({p["a"], p["b"]} == {"Larkspur Materials"} for p in pending(scope))

    record = cypher.read(scope, "MATCH (m:Merge {tenant: $tenant, uid: $uid}) "
                                "RETURN m.automatic AS automatic, m.reason AS reason",
                         uid=merge["merge_uid"])[0]  # fmt: skip
    assert record["automatic"] is True and record["reason"].startswith("scored again")
    learned = cypher.read(scope, DECISIONS, limit=100)
    assert all(not row["same"] for row in learned)  # no reviewer confirmed anything
    assert AuditEvent.objects.filter(tenant=tenant, action="resolution.collective_merge",
                                     target=merge["merge_uid"]).exists()  # fmt: skip

    from apps.review.selectors import merge_history

    [row] = [r for r in merge_history(scope, uid=merge["survivor_uid"])
             if r["uid"] == merge["merge_uid"]]  # fmt: skip
    assert row["collective"] and not row["automatic"]  # shown as the gate's, with Unmerge
    check_merge_undo(scope, merge_uid=merge["merge_uid"])
    assert len(firms(scope, "Larkspur Materials")) == 2


def test_namesakes_whose_context_conflicts_stay_pending_after_more_notes(tenant, api_client):
    scope = scope_for(tenant)
    post(api_client, "Elena Duarte is a nurse at Halcyon Foods in Porto.")
    post(api_client, "Elena Duarte is a pilot at Vantor Logistics in Bergen.")
    post(api_client, "Elena Duarte of Halcyon Foods moved her Porto shift to Monday.")
    people = cypher.read(scope, "MATCH (e:Entity {tenant: $tenant, status: 'active'}) "
                                "WHERE e.name = 'Elena Duarte' RETURN count(e) AS n")[0]["n"]  # fmt: skip
    assert people == 2


def test_a_persons_pending_fragment_is_a_namesake_beside_the_pair_and_a_firms_is_not():
    from apps.resolution.pair_rescoring import namesakes_beside

    def row(kind, carriers, apart):  # carriers: the name's active entities, the pair's included
        return {"left": {"type": kind}, "right": {"type": kind}, "same_name_count": carriers,
                "apart_count": apart}  # fmt: skip

    # crm seed 0: a bare 'Seo-yeon Bae' beside a colleague, her namesake pending beside it, and
    # the other fragment: context alone merged the pair.
    assert namesakes_beside(row("Person", 3, 0))
    assert not namesakes_beside(row("Organization", 3, 0))  # one firm's name split three ways
    assert namesakes_beside(row("Organization", 3, 1))  # a firm kept apart is another carrier
    assert not namesakes_beside(row("Person", 2, 0))  # the pair alone
