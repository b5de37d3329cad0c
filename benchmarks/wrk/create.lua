-- POST /api/v1/contracts: a mutual NDA draft with both signers bound to their roles. The same
-- request every time: wrk builds it once from wrk.method, wrk.path, wrk.headers and wrk.body.
package.path = os.getenv("WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

local body = [[{"title":"Mutual NDA","templateId":"tpl_mutual_nda",
"data":{"parties":{"partyAName":"Acme GmbH","partyAAddress":"Hauptstrasse 1, Berlin",
"partyBName":"Globex Ltd","partyBAddress":"1 High Street, London"},
"terms":{"effectiveDate":"2026-12-01","purpose":"Evaluating a joint venture","termMonths":24,
"confidentialityYears":5,"governingLaw":"England and Wales"}},
"participants":[
{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
 "name":"Ada Lovelace","email":"ada@acme.example","templateRoleId":"party_a_signatory"},
{"action":"sign","recipientType":"individual","executionChannel":"integrator_managed",
 "name":"Grace Hopper","email":"grace@globex.example","templateRoleId":"party_b_signatory"}]}]]

wrk.method = "POST"
wrk.path = "/api/v1/contracts"
wrk.headers = common.headers()
wrk.body = body
