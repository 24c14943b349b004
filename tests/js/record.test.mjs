// Reading match records for the replay viewer (src/bigtwo/web/js/record.js): anything that is
// not a readable record is refused with a RecordError naming the reason (a key of the strings),
// never a raw JavaScript error.
import { test } from "node:test";
import assert from "node:assert/strict";

import { readRecord, RecordError } from "../../src/bigtwo/web/js/record.js";

const deal = { number: 1, hands: ["3d 4d", "5d 6d"], leader: 0, actions: [{ seat: 0, play: "3d" }] };

/** @param {unknown} input @param {string} key */
function refused(input, key) {
  assert.throws(() => readRecord(/** @type {any} */ (input)), (err) => err instanceof RecordError && err.key === key);
}

test("a good record is read", () => {
  const record = readRecord(JSON.stringify({ deals: [deal], names: ["Ann", "Bo"] }));
  assert.deepEqual(record.deals[0].hands, [[0, 4], [8, 12]]);
  assert.deepEqual(record.seats.map((s) => s.name), ["Ann", "Bo"]);
});

test("what is not a record says why, in words of the strings", () => {
  refused("{not json", "replay.notJson");
  refused("[1, 2]", "replay.noDeals");
  refused(JSON.stringify({ deals: "none" }), "replay.noDeals");
  refused(JSON.stringify({ deals: [{ hands: [] }] }), "replay.noHands");
  refused(JSON.stringify({ deals: [7] }), "replay.noHands");
  refused(JSON.stringify({ deals: [{ ...deal, hands: ["3d 1x", "5d"] }] }), "replay.badCards");
  refused(JSON.stringify({ deals: [{ ...deal, actions: [{ seat: 9, play: "3d" }] }] }), "replay.badSeat");
  refused(JSON.stringify({ deals: [{ ...deal, actions: 5 }] }), "replay.unreadable");
});

test("a card number out of the deck is refused too", () => {
  refused(JSON.stringify({ deals: [{ ...deal, hands: [[0, 99], [4]] }] }), "replay.badCards");
});
