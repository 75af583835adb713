// The advertised protocol parameters must be exactly the ones scalus applies (its JS API cannot be configured).
import { expect } from "chai";
import { ogmiosProtocolParameters } from "../../shared/devnet/protocol-parameters";
import { PLUTUS_V1_COST_MODEL, PLUTUS_V2_COST_MODEL, PLUTUS_V3_COST_MODEL } from "../../shared/devnet/scalus-cost-models";
import { extractScalusCostModels } from "./support/scalus-cost-models";

describe("devnet protocol parameters", () => {
  it("advertises the cost models embedded in the installed scalus (regenerate if this fails after an upgrade)", () => {
    const scalus = extractScalusCostModels();
    expect(scalus.v1).to.deep.equal([...PLUTUS_V1_COST_MODEL]);
    expect(scalus.v2).to.deep.equal([...PLUTUS_V2_COST_MODEL]);
    expect(scalus.v3).to.deep.equal([...PLUTUS_V3_COST_MODEL]);
    const advertised = ogmiosProtocolParameters().plutusCostModels!;
    expect([advertised["plutus:v1"]?.length, advertised["plutus:v2"]?.length, advertised["plutus:v3"]?.length]).to.deep.equal([
      166, 175, 297,
    ]);
  });

  it("advertises the Conway mainnet economics scalus uses (fee a/b, coins per byte, prices, limits)", () => {
    const p = ogmiosProtocolParameters();
    expect(p.minFeeCoefficient).to.equal(44);
    expect(p.minFeeConstant.ada.lovelace).to.equal(155_381n);
    expect(p.minUtxoDepositCoefficient).to.equal(4310);
    expect(p.scriptExecutionPrices).to.deep.equal({ memory: "577/10000", cpu: "721/10000000" });
    expect(p.maxTransactionSize).to.deep.equal({ bytes: 16_384 });
    expect(p.collateralPercentage).to.equal(150);
    expect(p.version).to.deep.equal({ major: 10, minor: 0 });
  });
});
