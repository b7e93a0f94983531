// Drives the official client, @lightprotocol/stateless.js (pinned in package.json), against an indexer.
//
// Reads a plan (JSON) on standard input: {url, inputs}; calls every API method through the
// client's own Rpc method for it and prints one JSON line per call:
//   {"method": <API method>, "call": <what the client ran>, "ok": true, "parsed": {...}}
//   {"method": ..., "call": ..., "ok": false, "error": <the client's message>}
// `ok` means the client accepted the answer: its superstruct validation (coerce mode) passed and it built
// its own types from it. `parsed` holds values read back from those types (big numbers as decimal
// strings), so the caller can check the client read the right thing, not merely something.
// getCompressedAccountBalance has no Rpc method in this client: it goes through the client's raw
// `rpcRequest` and is validated with the struct the client uses for getCompressedBalance,
// `jsonRpcResultAndContext(NativeBalanceResult)`.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const sdk = require("@lightprotocol/stateless.js");
const { PublicKey } = require("@solana/web3.js");
const BN = require("bn.js");

const key = (text) => new PublicKey(text);
const bn = (text) => sdk.createBN254(text, "base58");
const dec = (value) => (value === null || value === undefined ? null : BN.isBN(value) ? value.toString() : value);
const b58 = (value) => (value === null || value === undefined ? null : value.toBase58 ? value.toBase58() : value);

function account(a) {
  return { hash: sdk.encodeBN254toBase58(a.hash), lamports: dec(a.lamports), leafIndex: a.leafIndex,
           owner: b58(a.owner), tree: b58(a.merkleTree), hasData: Boolean(a.data),
           address: a.address ? new PublicKey(Uint8Array.from(a.address)).toBase58() : null };
}

function tokenAccount(t) {
  return { hash: sdk.encodeBN254toBase58(t.compressedAccount.hash), mint: b58(t.parsed.mint),
           owner: b58(t.parsed.owner), amount: dec(t.parsed.amount), delegate: b58(t.parsed.delegate) };
}

const signatures = (page) => ({ signatures: page.items.map((s) => s.signature), cursor: page.cursor ?? null });

function proof(p) {
  const c = p.compressedProof;
  return { sizes: [c.a.length, c.b.length, c.c.length], compressedProof: { a: [...c.a], b: [...c.b], c: [...c.c] },
           roots: p.roots.map(sdk.encodeBN254toBase58),
           leaves: p.leaves.map(sdk.encodeBN254toBase58), leafIndices: p.leafIndices, rootIndices: p.rootIndices,
           merkleTrees: p.merkleTrees.map(b58) };
}

// One entry per client call: [API method, what the client runs, how to run it and read the answer].
function calls(rpc, url, inputs) {
  const hashWithTree = (h) => ({ hash: bn(h.hash), tree: key(h.tree), queue: key(h.tree) });
  const addressWithTree = (a) => ({ address: bn(a), tree: key(inputs.addressTree), queue: key(inputs.addressTree) });
  return [
    ["getCompressedAccount", "Rpc.getCompressedAccount(undefined, hash)",
     async () => account(await rpc.getCompressedAccount(undefined, bn(inputs.hash)))],
    ["getCompressedAccount", "Rpc.getCompressedAccount(address)",
     async () => account(await rpc.getCompressedAccount(bn(inputs.address)))],
    ["getCompressedAccountBalance", "rpcRequest + jsonRpcResultAndContext(NativeBalanceResult)",
     async () => {
       const raw = await sdk.rpcRequest(url, "getCompressedAccountBalance", { hash: inputs.hash });
       const checked = sdk.jsonRpcResultAndContext(sdk.NativeBalanceResult).create(raw);
       return { value: dec(checked.result.value), slot: checked.result.context.slot };
     }],
    ["getCompressedBalance", "Rpc.getCompressedBalance(undefined, hash)",
     async () => ({ value: dec(await rpc.getCompressedBalance(undefined, bn(inputs.hash))) })],
    ["getCompressedBalanceByOwner", "Rpc.getCompressedBalanceByOwner(owner)",
     async () => ({ value: dec(await rpc.getCompressedBalanceByOwner(key(inputs.owner))) })],
    ["getCompressedAccountsByOwner", "Rpc.getCompressedAccountsByOwner(owner)",
     async () => {
       const page = await rpc.getCompressedAccountsByOwner(key(inputs.owner));
       return { accounts: page.items.map(account), cursor: page.cursor ?? null };
     }],
    ["getCompressedTokenAccountsByOwner", "Rpc.getCompressedTokenAccountsByOwner(owner)",
     async () => ({ accounts: (await rpc.getCompressedTokenAccountsByOwner(key(inputs.tokenOwner))).items
       .map(tokenAccount) })],
    ["getCompressedTokenAccountsByDelegate", "Rpc.getCompressedTokenAccountsByDelegate(delegate)",
     async () => ({ accounts: (await rpc.getCompressedTokenAccountsByDelegate(key(inputs.delegate))).items
       .map(tokenAccount) })],
    ["getCompressedTokenBalancesByOwner", "Rpc.getCompressedTokenBalancesByOwner(owner)",
     async () => ({ balances: (await rpc.getCompressedTokenBalancesByOwner(key(inputs.tokenOwner))).items
       .map((b) => ({ mint: b58(b.mint), balance: dec(b.balance) })) })],
    ["getCompressedTokenAccountBalance", "Rpc.getCompressedTokenAccountBalance(hash)",
     async () => ({ amount: dec((await rpc.getCompressedTokenAccountBalance(bn(inputs.tokenHash))).amount) })],
    ["getTransactionWithCompressionInfo", "Rpc.getTransactionWithCompressionInfo(signature)",
     async () => {
       const info = (await rpc.getTransactionWithCompressionInfo(inputs.signature)).compressionInfo;
       const side = (items) => items.map((i) => ({ hash: account(i.account).hash,
                                                  amount: i.maybeTokenData ? dec(i.maybeTokenData.amount) : null }));
       return { opened: side(info.openedAccounts), closed: side(info.closedAccounts) };
     }],
    ["getCompressionSignaturesForAddress", "Rpc.getCompressionSignaturesForAddress(address)",
     async () => signatures(await rpc.getCompressionSignaturesForAddress(key(inputs.address)))],
    ["getCompressionSignaturesForOwner", "Rpc.getCompressionSignaturesForOwner(owner)",
     async () => signatures(await rpc.getCompressionSignaturesForOwner(key(inputs.owner)))],
    ["getCompressionSignaturesForTokenOwner", "Rpc.getCompressionSignaturesForTokenOwner(owner)",
     async () => signatures(await rpc.getCompressionSignaturesForTokenOwner(key(inputs.tokenOwner)))],
    ["getLatestCompressionSignatures", "Rpc.getLatestCompressionSignatures()",
     async () => signatures((await rpc.getLatestCompressionSignatures()).value)],
    ["getLatestNonVotingSignatures", "Rpc.getLatestNonVotingSignatures()",
     async () => {
       const items = (await rpc.getLatestNonVotingSignatures()).value.items;
       return { signatures: items.map((s) => s.signature), failed: items.filter((s) => s.error).map((s) => s.signature) };
     }],
    ["getMultipleNewAddressProofs", "Rpc.getMultipleNewAddressProofs(addresses)",
     async () => ({ proofs: (await rpc.getMultipleNewAddressProofs(inputs.freshAddresses.map(bn))).map((p) => ({
       value: sdk.encodeBN254toBase58(p.value), root: sdk.encodeBN254toBase58(p.root), rootIndex: p.rootIndex,
       tree: b58(p.merkleTree), siblings: p.merkleProofHashedIndexedElementLeaf.length })) })],
    ["getValidityProof", "Rpc.getValidityProofV0(hashes, [])",
     async () => proof(await rpc.getValidityProofV0(inputs.proofHashes.map(hashWithTree), []))],
    ["getValidityProof", "Rpc.getValidityProofV0([], addresses)",
     async () => proof(await rpc.getValidityProofV0([], inputs.freshAddresses.slice(0, 1).map(addressWithTree)))],
    ["getValidityProof", "Rpc.getValidityProofV0(hashes, addresses)",
     async () => proof(await rpc.getValidityProofV0(inputs.proofHashes.slice(0, 1).map(hashWithTree),
                                                    inputs.freshAddresses.slice(0, 1).map(addressWithTree)))],
    ["getIndexerHealth", "Rpc.getIndexerHealth()", async () => ({ value: await rpc.getIndexerHealth() })],
    ["getIndexerSlot", "Rpc.getIndexerSlot()", async () => ({ value: await rpc.getIndexerSlot() })],
  ];
}

function client(plan) {
  // Every endpoint is the server under test. The client looks up a queue for the tree of each account it
  // builds; on a 127.0.0.1 endpoint it answers from its built-in localnet table and ignores
  // setStateTreeInfo (its way for custom trees), so the scenario's state trees are added to that table
  // here. The queue is only carried into the client's types, never sent: each tree stands for its own.
  const rpc = sdk.createRpc(plan.url, plan.url, plan.url);
  const known = sdk.localTestActiveStateTreeInfo();
  const extra = plan.inputs.stateTrees.filter((t) => !known.some((k) => k.tree.toBase58() === t))
    .map((t) => ({ tree: key(t), queue: key(t), cpiContext: null, treeType: 0 }));
  const table = [...known, ...extra];
  rpc.getCachedActiveStateTreeInfo = async () => table;
  return rpc;
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const plan = JSON.parse(text);
  const rpc = client(plan);
  for (const [method, call, run] of calls(rpc, plan.url, plan.inputs)) {
    try {
      console.log(JSON.stringify({ method, call, ok: true, parsed: await run() }));
    } catch (error) {
      console.log(JSON.stringify({ method, call, ok: false, error: String(error && error.message || error) }));
    }
  }
}

await main();
