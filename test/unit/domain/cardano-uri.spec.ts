import { expect } from "chai";
import { browseUri } from "../../../shared/domain/cardano-uri";

describe("CIP-158 browse links (web+cardano://browse/v1)", () => {
  it("percent-encodes the whole URL as the uri parameter, as the CIP's examples do", () => {
    expect(browseUri("http://localhost:3000/devPage")).to.equal("web+cardano://browse/v1?uri=http%3A%2F%2Flocalhost%3A3000%2FdevPage");
    expect(browseUri("https://app.example/exchange?given=ada.lovelace&taken=x")).to.equal(
      "web+cardano://browse/v1?uri=https%3A%2F%2Fapp.example%2Fexchange%3Fgiven%3Dada.lovelace%26taken%3Dx",
    );
  });

  it("refuses anything but an absolute http or https URL (version 1 opens only those)", () => {
    for (const url of ["javascript:alert(1)", "ftp://host/file", "/relative", "https://", "web+cardano://browse/v1?uri=x"])
      expect(() => browseUri(url), url)
        .to.throw()
        .with.property("type", "INVALID_BROWSE_URI");
  });
});
