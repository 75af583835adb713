import { expect } from "chai";
import { categoryOf, templateIdOf } from "../../../shared/domain/certificate-metadata";

describe("certificate metadata", () => {
  it("reads the template id from uv_tid first, then the other recognised keys", () => {
    expect(templateIdOf('{"uv_tid":"diploma","uverify_template_id":"x"}')).to.equal("diploma");
    expect(templateIdOf('{"service_template_id":"socialHub"}')).to.equal("socialHub");
    expect(templateIdOf('{"uverify_template_id":"blockforce"}')).to.equal("blockforce");
  });

  it("classifies certificates into the statistics categories, Notary by default", () => {
    expect(categoryOf('{"uv_tid":"diploma"}')).to.equal("Student Certification");
    expect(categoryOf('{"uv_tid":"linktree"}')).to.equal("Connected Goods");
    expect(categoryOf('{"uv_tid":"tadamon"}')).to.equal("Identity");
    // credential records (AUTH / REVOKE) are identity statements
    expect(categoryOf('{"uv_tid":"IdentityAuth","t":"AUTH","ct":"email"}')).to.equal("Identity");
    expect(categoryOf('{"uverify_template_id":"IdentityAuth","t":"REVOKE"}')).to.equal("Identity");
    expect(categoryOf('{"uv_tid":"blockforce"}')).to.equal("Cross-Chain Attestation");
    expect(categoryOf("")).to.equal("Notary");
    expect(categoryOf("not json")).to.equal("Notary");
    expect(categoryOf('{"uv_tid":42}')).to.equal("Notary");
  });
});
