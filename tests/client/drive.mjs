// Drives the official client, @lightprotocol/stateless.js, against an indexer, as an app uses it: nothing of
// the client is overridden or configured beyond choosing its API version.
//
// Reads a plan (JSON) on standard input: {url, inputs, client, version}. `client` names the installed copy
// (package.json installs each pinned release under an npm alias, `stateless-js-<release>`); `version` is
// "V1" or "V2" for a client that has both APIs (0.23 and later select one with `featureFlags.version`,
// fixed to V2 in the published build), or null for one that has only V1. Every read call is run through the
// client's own Rpc method and one JSON line is printed per call:
//   {"method": <API method>, "call": <what the client ran>, "ok": true, "parsed": {...}, "sent": [...]}
//   {"method": ..., "call": ..., "ok": false, "error": <the client's message>, "sent": [...]}
// `ok` means the client accepted the answer: its superstruct validation passed and it built its own types
// from it. `parsed` holds values read back from those types (big numbers as decimal strings), so the caller
// can check the client read the right thing, not merely something. `sent` lists the JSON-RPC requests the
// call made, each {method, code} with the error code of the answer (null for a result): it is recorded by
// a pass-through wrapper of `fetch`, which changes neither request nor answer.
// getCompressedAccountBalance has no Rpc method in these clients: it goes through the client's raw
// `rpcRequest` and is validated with the struct the client uses for getCompressedBalance,
// `jsonRpcResultAndContext(NativeBalanceResult)`. The last calls (method null) need methods outside the 19.
import { createRequire } from "node:module";

import { recordRequests } from "./record_requests.mjs";

const require = createRequire(import.meta.url);
const { PublicKey } = require("@solana/web3.js");
const BN = require("bn.js");

const key = (text) => new PublicKey(text);
const dec = (value) => (value === null || value === undefined ? null : BN.isBN(value) ? value.toString() : value);
const b58 = (value) => (value === null || value === undefined ? null : value.toBase58 ? value.toBase58() : value);

// Where each client keeps a tree in its types: 0.20 names it directly, 0.23 in a TreeInfo.
const treeOf = (context) => b58(context.merkleTree ?? context.treeInfo?.tree);
const treesOf = (proof) => (proof.merkleTrees ?? proof.treeInfos.map((info) => info.tree)).map(b58);

function calls(sdk, rpc, plan) {
  const { url, inputs } = plan;
  const bn = (text) => sdk.createBN254(text, "base58");
  const hex = (value) => sdk.encodeBN254toBase58(value);
  const account = (a) => ({ hash: hex(a.hash), lamports: dec(a.lamports), leafIndex: a.leafIndex, owner: b58(a.owner),
                            tree: treeOf(a), hasData: Boolean(a.data),
                            address: a.address ? new PublicKey(Uint8Array.from(a.address)).toBase58() : null });
  const tokenAccount = (t) => ({ hash: hex(t.compressedAccount.hash), mint: b58(t.parsed.mint),
                                 owner: b58(t.parsed.owner), amount: dec(t.parsed.amount),
                                 delegate: b58(t.parsed.delegate) });
  const signatures = (page) => ({ signatures: page.items.map((s) => s.signature), cursor: page.cursor ?? null });
  const proof = (p) => {
    const c = p.compressedProof;
    return { sizes: [c.a.length, c.b.length, c.c.length], compressedProof: { a: [...c.a], b: [...c.b], c: [...c.c] },
             roots: p.roots.map(hex), leaves: p.leaves.map(hex), leafIndices: p.leafIndices,
             rootIndices: p.rootIndices, merkleTrees: treesOf(p) };
  };
  // A proof request names each tree with its queue; the queue is never sent, so it is taken from the
  // client's own table of the trees it knows (the table it reads on a local endpoint).
  const known = (sdk.localTestActiveStateTreeInfos ?? sdk.localTestActiveStateTreeInfo)();
  const queueOf = (tree) => {
    const info = known.find((entry) => entry.tree.toBase58() === tree);
    if (!info) throw new Error(`the client knows no state tree ${tree}`);
    return info.queue;
  };
  const hashWithTree = (h) => ({ hash: bn(h.hash), tree: key(h.tree), queue: queueOf(h.tree) });
  const addressWithTree = (a) => ({ address: bn(a), tree: key(inputs.addressTree),
                                    queue: sdk.defaultTestStateTreeAccounts().addressQueue });
  const list = [
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
    ...inputs.owners.map((owner) => ["getCompressedAccountsByOwner", `Rpc.getCompressedAccountsByOwner(${owner.name})`,
      async () => {
        const page = await rpc.getCompressedAccountsByOwner(key(owner.key));
        return { accounts: page.items.map(account), cursor: page.cursor ?? null };
      }]),
    ...inputs.tokenOwners.map((owner) => ["getCompressedTokenAccountsByOwner",
      `Rpc.getCompressedTokenAccountsByOwner(${owner.name})`,
      async () => ({ accounts: (await rpc.getCompressedTokenAccountsByOwner(key(owner.key))).items
        .map(tokenAccount) })]),
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
       value: hex(p.value), root: hex(p.root), rootIndex: p.rootIndex, tree: treeOf(p),
       siblings: p.merkleProofHashedIndexedElementLeaf.length })) })],
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
  // Calls of the client's Rpc that need a method outside the 19 (null: no API method): the caller names them.
  const hashes = [bn(inputs.hash)];
  list.push(
    [null, "Rpc.getValidityProof(hashes)", async () => proof(await rpc.getValidityProof(hashes))],
    [null, "Rpc.getCompressedAccountProof(hash)",
     async () => ({ leafIndex: (await rpc.getCompressedAccountProof(hashes[0])).leafIndex })],
    [null, "Rpc.getMultipleCompressedAccounts(hashes)",
     async () => ({ accounts: (await rpc.getMultipleCompressedAccounts(hashes)).map(account) })],
    [null, "Rpc.getMultipleCompressedAccountProofs(hashes)",
     async () => ({ count: (await rpc.getMultipleCompressedAccountProofs(hashes)).length })],
    [null, "Rpc.getCompressionSignaturesForAccount(hash)",
     async () => ({ signatures: (await rpc.getCompressionSignaturesForAccount(hashes[0])).map((s) => s.signature) })],
    [null, "Rpc.getCompressedMintTokenHolders(mint)",
     async () => ({ count: (await rpc.getCompressedMintTokenHolders(key(inputs.mint))).value.items.length })],
    [null, "Rpc.getCompressedTokenBalancesByOwnerV2(owner)",
     async () => ({ count: (await rpc.getCompressedTokenBalancesByOwnerV2(key(inputs.tokenOwner))).value.items
       .length })],
  );
  return list;
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const plan = JSON.parse(text);
  const sdk = require(`stateless-js-${plan.client}`);
  if (plan.version) sdk.featureFlags.version = sdk.VERSION[plan.version];
  const sent = [];
  recordRequests(sent);
  const rpc = sdk.createRpc(plan.url, plan.url, plan.url);
  for (const [method, call, run] of calls(sdk, rpc, plan)) {
    sent.length = 0;
    try {
      const parsed = await run();
      console.log(JSON.stringify({ method, call, ok: true, parsed, sent }));
    } catch (error) {
      console.log(JSON.stringify({ method, call, ok: false, error: String(error && error.message || error), sent }));
    }
  }
}

await main();
