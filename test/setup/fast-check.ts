/**
 * Every property test runs a fixed seed, so `npm test` gives the same answer on every machine and
 * a red CI run can be replayed: the seed a failure prints plus `VSK_FC_SEED=<seed>` reproduces it.
 * `VSK_FC_SEED=random` explores new samples (a test that sets its own `seed` keeps it).
 */
import fc from "fast-check";

const seed = process.env.VSK_FC_SEED;
if (seed !== "random")
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: seed === undefined ? 20261128 : Number(seed) });
