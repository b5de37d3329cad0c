// <contract-signing src="EMBED_URL">: the hosted signing page of contractd inside an integrator's
// own page. Served by contractd at /contract-signing.js (compiled in from http/contract_signing.js).
//
// The element frames the embed URL (POST /api/v1/signing-sessions/{id}/embed-url), grows to the
// height of the page inside, and turns the page's messages into DOM events on itself, which
// bubble: signing.loaded, signing.resized, signing.completed, signing.declined, signing.expired
// and signing.error, each with {type, sessionId, contractId, ...} as event.detail. A message counts
// only when it comes from this element's own frame and from the origin of its src: no other
// window can fake an event.
(function () {
  "use strict";
  if (window.customElements === undefined || window.customElements.get("contract-signing")) return;

  const TYPES = ["signing.loaded", "signing.resized", "signing.completed", "signing.declined",
    "signing.expired", "signing.error"];
  const MIN_HEIGHT = 320;
  const MAX_HEIGHT = 100000;

  class ContractSigning extends HTMLElement {
    static get observedAttributes() { return ["src"]; }

    constructor() {
      super();
      this.origin = null;
      this.frame = null;
      this.connected = false;
      this.onMessage = this.onMessage.bind(this);
      this.attachShadow({ mode: "open" });
    }

    // Styles through the CSSOM, which a page's Content-Security-Policy does not restrict.
    connectedCallback() {
      if (!this.style.display) this.style.display = "block";
      window.addEventListener("message", this.onMessage);
      this.connected = true;
      this.render();
    }

    disconnectedCallback() {
      window.removeEventListener("message", this.onMessage);
      this.connected = false;
    }

    // An element upgraded with its src already set hears of it here first and renders once
    // connected: an embed URL opens only once, so it must be loaded only once.
    attributeChangedCallback() {
      if (this.connected && this.isConnected) this.render();
    }

    render() {
      const src = this.getAttribute("src");
      let url = null;
      try { url = src ? new URL(src, document.baseURI) : null; } catch (e) { url = null; }
      if (this.frame) this.frame.remove();
      this.frame = null;
      this.origin = null;
      if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return;
      this.origin = url.origin;
      const frame = document.createElement("iframe");
      frame.title = this.getAttribute("frame-title") || "Sign the document";
      frame.referrerPolicy = "no-referrer";
      frame.style.display = "block";
      frame.style.width = "100%";
      frame.style.border = "0";
      frame.style.height = MIN_HEIGHT + "px";
      frame.src = url.href;
      this.frame = frame;
      this.shadowRoot.append(frame);
    }

    onMessage(event) {
      if (!this.frame || event.source !== this.frame.contentWindow) return;
      if (event.origin !== this.origin) return;
      const data = event.data;
      if (!data || typeof data !== "object" || !TYPES.includes(data.type)) return;
      if (data.type === "signing.resized" && Number.isFinite(data.height)) {
        const height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(data.height)));
        this.frame.style.height = height + "px";
      }
      const detail = {};
      for (const key of ["type", "sessionId", "contractId", "state", "code", "height"]) {
        if (key in data) detail[key] = data[key];
      }
      this.dispatchEvent(new CustomEvent(data.type, { detail: detail, bubbles: true, composed: true }));
    }
  }

  window.customElements.define("contract-signing", ContractSigning);
})();
