/** The strength rule for claiming passwords at mint (docs/connected-goods.md#claiming-passwords). */
import { expect } from "chai";
import { MIN_CLAIMING_PASSWORD_BITS, passwordBits } from "../../../shared/extensions/connected-goods";

describe("connected goods: claiming-password strength", function () {
  it("estimates bits as counted characters × log2(pool of the classes used)", () => {
    expect(passwordBits("k7q2m9x4w8r3t6y1z5p0")).to.equal(Math.floor(20 * Math.log2(36)));
    expect(passwordBits("Kq7Zm2Xw9Rt4Yp8N")).to.equal(Math.floor(16 * Math.log2(62)));
    expect(passwordBits("correct horse shoe-0002 battery")).to.be.at.least(MIN_CLAIMING_PASSWORD_BITS);
  });

  it("counts nothing for repeats and runs, so padding a weak password does not make it strong", () => {
    expect(passwordBits("a".repeat(40))).to.be.below(10);
    expect(passwordBits("ab".repeat(20))).to.be.below(15);
    expect(passwordBits("abcdefghijklmnopqrstuvwxyz")).to.be.below(15);
    expect(passwordBits("0123456789876543210")).to.be.below(10);
  });

  it("refuses common weak passwords (below 80 bits)", () => {
    for (const weak of ["password1234", "shoe1234", "Tr0ub4dor&3", "same password"]) {
      expect(passwordBits(weak), weak).to.be.below(MIN_CLAIMING_PASSWORD_BITS);
    }
  });
});
