// Drives @lightprotocol/stateless.js 0.23.3 exactly as it is published against an indexer: `createRpc(url, url, url)`,
// nothing overridden, nothing configured (its default API version, V2). Every read call an app makes is run
// through the client's own Rpc method, so the client's own validation and parsing judge each answer.
//
// Reads a plan (JSON) on standard input: {url, inputs}. Prints one JSON line per call:
//   {"call": <what the client ran>, "ok": true, "parsed": {...}, "sent": [{method, code}]}
//   {"call": ..., "ok": false, "error": <the client's message>, "sent": [...]}
// `parsed` holds values read back from the client's own types (big numbers as decimal strings); `sent` is recorded
// by a pass-through wrapper of `fetch` that changes neither request nor answer (code null for a result).
import { createRequire } from "node:module";

import { recordRequests } from "./record_requests.mjs";

const require = createRequire(import.meta.url);
const { PublicKey } = require("@solana/web3.js");
const BN = require("bn.js");
const sdk = require("stateless-js-0.23.3");

const key = (text) => new PublicKey(text);
const dec = (value) => (value === null || value === undefined ? null : BN.isBN(value) ? value.toString() : value);
const b58 = (value) => (value === null || value === undefined ? null : value.toBase58 ? value.toBase58() : value);
const hex = (value) => sdk.encodeBN254toBase58(value);
const bn = (text) => sdk.createBN254(text, "base58");

const account = (a) => ({ hash: hex(a.hash), lamports: dec(a.lamports), leafIndex: a.leafIndex, owner: b58(a.owner),
                          tree: b58(a.treeInfo.tree), queue: b58(a.treeInfo.queue), treeType: a.treeInfo.treeType,
                          proveByIndex: a.proveByIndex, hasData: Boolean(a.data) });
const token = (t) => ({ hash: hex(t.compressedAccount.hash), tree: b58(t.compressedAccount.treeInfo.tree),
                        mint: b58(t.parsed.mint), owner: b58(t.parsed.owner), amount: dec(t.parsed.amount),
                        delegate: b58(t.parsed.delegate) });
const signatures = (items) => items.map((s) => s.signature);
const proof = (p) => ({ hasProof: p.compressedProof !== null, roots: p.roots.map(hex), leaves: p.leaves.map(hex),
                        rootIndices: p.rootIndices, leafIndices: p.leafIndices, proveByIndices: p.proveByIndices,
                        trees: p.treeInfos.map((info) => b58(info.tree)), queues: p.treeInfos.map((info) => b58(info.queue)) });

function calls(rpc, inputs) {
  const hashes = inputs.hashes.map(bn);
  return [
    ["getCompressedAccountsByOwner(owner)", async () => {
      const page = await rpc.getCompressedAccountsByOwner(key(inputs.owner));
      return { accounts: page.items.map(account), cursor: page.cursor ?? null };
    }],
    ["getCompressedAccount(undefined, hash)", async () => account(await rpc.getCompressedAccount(undefined, hashes[0]))],
    ["getCompressedAccount(address)", async () => account(await rpc.getCompressedAccount(bn(inputs.address)))],
    ["getMultipleCompressedAccounts(hashes)", async () => ({
      accounts: (await rpc.getMultipleCompressedAccounts(hashes)).map(account) })],
    ["getCompressedBalance(undefined, hash)", async () => ({
      value: dec(await rpc.getCompressedBalance(undefined, hashes[0])) })],
    ["getCompressedBalanceByOwner(owner)", async () => ({ value: dec(await rpc.getCompressedBalanceByOwner(key(inputs.owner))) })],
    ["getCompressedTokenAccountsByOwner(owner)", async () => ({
      accounts: (await rpc.getCompressedTokenAccountsByOwner(key(inputs.tokenOwner))).items.map(token) })],
    ["getCompressedTokenAccountsByDelegate(delegate)", async () => ({
      accounts: (await rpc.getCompressedTokenAccountsByDelegate(key(inputs.delegate))).items.map(token) })],
    ["getCompressedTokenBalancesByOwnerV2(owner)", async () => ({
      balances: (await rpc.getCompressedTokenBalancesByOwnerV2(key(inputs.tokenOwner))).value.items
        .map((b) => ({ mint: b58(b.mint), balance: dec(b.balance) })) })],
    ["getCompressedTokenAccountBalance(hash)", async () => ({
      amount: dec((await rpc.getCompressedTokenAccountBalance(bn(inputs.tokenHash))).amount) })],
    ["getCompressionSignaturesForOwner(owner)", async () => ({
      signatures: signatures((await rpc.getCompressionSignaturesForOwner(key(inputs.owner))).items) })],
    ["getCompressionSignaturesForAddress(address)", async () => ({
      signatures: signatures((await rpc.getCompressionSignaturesForAddress(key(inputs.address))).items) })],
    ["getCompressionSignaturesForAccount(hash)", async () => ({
      signatures: signatures(await rpc.getCompressionSignaturesForAccount(hashes[0])) })],
    ["getCompressionSignaturesForTokenOwner(owner)", async () => ({
      signatures: signatures((await rpc.getCompressionSignaturesForTokenOwner(key(inputs.tokenOwner))).items) })],
    ["getLatestCompressionSignatures()", async () => ({
      signatures: signatures((await rpc.getLatestCompressionSignatures()).value.items) })],
    ["getTransactionWithCompressionInfo(signature)", async () => {
      const info = (await rpc.getTransactionWithCompressionInfo(inputs.signature)).compressionInfo;
      const side = (items) => items.map((i) => ({ hash: hex(i.account.hash),
                                                  amount: i.maybeTokenData ? dec(i.maybeTokenData.amount) : null }));
      return { opened: side(info.openedAccounts), closed: side(info.closedAccounts) };
    }],
    ["getValidityProof(hashes)", async () => proof(await rpc.getValidityProof(hashes))],
    ["getValidityProof([], addresses)", async () => proof(await rpc.getValidityProof([], [bn(inputs.freshAddresses[0])]))],
    ["getValidityProof(hashes, addresses)", async () => proof(await rpc.getValidityProof(hashes.slice(0, 1),
                                                                                         [bn(inputs.freshAddresses[0])]))],
    ["getMultipleNewAddressProofs(addresses)", async () => ({
      proofs: (await rpc.getMultipleNewAddressProofs(inputs.freshAddresses.map(bn))).map((p) => ({
        value: hex(p.value), root: hex(p.root), rootIndex: p.rootIndex, tree: b58(p.treeInfo.tree),
        siblings: p.merkleProofHashedIndexedElementLeaf.length })) })],
    ["getCompressedAccountProof(hash)", async () => {
      const p = await rpc.getCompressedAccountProof(hashes[0]);
      return { hash: hex(p.hash), root: hex(p.root), leafIndex: p.leafIndex, rootIndex: p.rootIndex,
               proveByIndex: p.proveByIndex, tree: b58(p.treeInfo.tree), siblings: p.merkleProof.length };
    }],
    ["getMultipleCompressedAccountProofs(hashes)", async () => ({
      proofs: (await rpc.getMultipleCompressedAccountProofs(hashes)).map((p) => ({ hash: hex(p.hash),
        leafIndex: p.leafIndex, proveByIndex: p.proveByIndex })) })],
    ["getCompressedMintTokenHolders(mint)", async () => ({
      holders: (await rpc.getCompressedMintTokenHolders(key(inputs.mint))).value.items
        .map((h) => ({ owner: b58(h.owner), balance: dec(h.balance) })) })],
    ["getIndexerHealth()", async () => ({ value: await rpc.getIndexerHealth() })],
    ["getIndexerSlot()", async () => ({ value: await rpc.getIndexerSlot() })],
  ];
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const plan = JSON.parse(text);
  const sent = [];
  recordRequests(sent);
  const rpc = sdk.createRpc(plan.url, plan.url, plan.url);
  for (const [call, run] of calls(rpc, plan.inputs)) {
    sent.length = 0;
    try {
      console.log(JSON.stringify({ call, ok: true, parsed: await run(), sent }));
    } catch (error) {
      console.log(JSON.stringify({ call, ok: false, error: String(error && error.message || error), sent }));
    }
  }
}

await main();
