import { describe, expect, it } from "vitest";
import { communicatorAction, pageAfter, popupSize } from "./AuthorizeNetPopup";

describe("Authorize.Net popup", () => {
  it("is 70% wide above 576 px, else 300 px, and 90% high", () => {
    expect(popupSize(1280)).toEqual({ width: "70%", height: "90%" });
    expect(popupSize(577)).toEqual({ width: "70%", height: "90%" });
    expect(popupSize(576)).toEqual({ width: "300px", height: "90%" });
  });

  it("closes on successfulSave, cancel and transactResponse, and only resizes on resizeWindow", () => {
    expect(communicatorAction("action=successfulSave")).toEqual({ kind: "close" });
    expect(communicatorAction("action=cancel")).toEqual({ kind: "close" });
    const response = encodeURIComponent(JSON.stringify({ transId: "60000000001", responseCode: "1" }));
    expect(communicatorAction(`action=transactResponse&response=${response}`)).toEqual({ kind: "return", transId: "60000000001" });
    expect(communicatorAction("action=transactResponse&response=garbage")).toEqual({ kind: "return", transId: null });
    expect(communicatorAction("action=resizeWindow&width=500&height=640")).toEqual({ kind: "resize", width: 500, height: 640 });
    expect(communicatorAction("action=resizeWindow&width=x")).toEqual({ kind: "ignore" });
    expect(communicatorAction("action=somethingElse")).toEqual({ kind: "ignore" });
  });

  it("leaves for the attempt's cancel page on cancel or a close without a transaction, for the return page after one", () => {
    const urls = {
      returnUrl: "https://store.example/checkout-authorized/authorizenet?checkout_token=chk_1&attempt=pa_1",
      cancelUrl: "https://store.example/payments/cancelled?checkout_token=chk_1&attempt=pa_1",
    };
    expect(pageAfter(communicatorAction("action=cancel"), urls)).toBe(urls.cancelUrl);
    expect(pageAfter({ kind: "close" }, urls)).toBe(urls.cancelUrl);
    const response = encodeURIComponent(JSON.stringify({ transId: "60000000001", responseCode: "1" }));
    expect(pageAfter(communicatorAction(`action=transactResponse&response=${response}`), urls)).toBe(
      `${urls.returnUrl}&trans_id=60000000001`,
    );
    expect(pageAfter(communicatorAction("action=transactResponse&response=garbage"), urls)).toBe(urls.returnUrl);
    expect(pageAfter(communicatorAction("action=resizeWindow&width=500&height=640"), urls)).toBeNull();
    expect(pageAfter(communicatorAction("action=somethingElse"), urls)).toBeNull();
  });
});
