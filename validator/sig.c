/* The signature table (sig.h).  The patterns are this project's own,
 * written from what each source shows of the page; the sources are
 * where to look when a vendor changes its page. */
#include "sig.h"

/* A sign-in page: a host named for it, or a path segment that is one. */
#define LOGIN_URL \
	"^https?://(?:(?:login|signin|auth|sso|accounts?)\\.[^/]+|[^/]+/(?:[^?#]*/)?" \
	"(?:log-?in|sign-?in|sign_in|auth|authenticate|sso|session/new|wp-login\\.php))(?:[/?#.;]|$)"

const char sig_login_url[] = LOGIN_URL;

const struct sig sig_table[] = {
	/* Markers the vendors put on their interstitials and nowhere else.
	 * A header, a description or a redirect decides on any page; the
	 * body's markers only on a short one, since an article on these
	 * pages may quote them in its text. */
	{ SIG_BLOCKED, "cloudflare challenge", SIG_HEADER, "cf-mitigated", 0, "^challenge$",
	  "https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/" },
	{ SIG_BLOCKED, "aws waf challenge", SIG_HEADER, "x-amzn-waf-action", 0, "^(?:captcha|challenge)$",
	  "https://docs.aws.amazon.com/waf/latest/developerguide/waf-captcha-and-challenge-actions.html" },
	{ SIG_BLOCKED, "sucuri firewall", SIG_HEADER, "x-sucuri-block", 0, ".",
	  "https://github.com/Ekultek/WhatWaf/issues/1164" },
	{ SIG_BLOCKED, "cloudflare challenge", SIG_BODY, NULL, SIG_SHORT,
	  "window\\._cf_chl_opt|/cdn-cgi/challenge-platform/\\S*orchestrate",
	  "https://github.com/unclecode/crawl4ai/blob/main/crawl4ai/antibot_detector.py" },
	{ SIG_BLOCKED, "perimeterx block", SIG_DESCRIPTION, NULL, 0, "^px-captcha$",
	  "https://github.com/0xjas0/Chegg-Answer-Bot/issues/34" },
	{ SIG_BLOCKED, "perimeterx block", SIG_BODY, NULL, SIG_SHORT, "id=[\"']?px-captcha\\b",
	  "https://github.com/webrecorder/browsertrix-crawler/blob/main/src/util/ratelimitrules.ts" },
	{ SIG_BLOCKED, "datadome block", SIG_BODY, NULL, SIG_SHORT, "captcha-delivery\\.com",
	  "https://github.com/unclecode/crawl4ai/blob/main/crawl4ai/antibot_detector.py" },
	{ SIG_BLOCKED, "imperva block", SIG_BODY, NULL, SIG_SHORT, "<iframe[^>]+_incapsula_resource",
	  "https://github.com/apify/crawlee/blob/master/packages/utils/src/internals/blocked.ts" },
	{ SIG_BLOCKED, "kasada challenge", SIG_BODY, NULL, SIG_SHORT, "kpsdk\\.scriptstart",
	  "https://github.com/unclecode/crawl4ai/blob/main/crawl4ai/antibot_detector.py" },
	{ SIG_BLOCKED, "google unusual traffic", SIG_FINAL_URL, NULL, 0, "^https?://[^/]*\\bgoogle\\.[a-z.]+/sorry/",
	  "https://github.com/VT-CHCI/google-scholar/issues/6" },

	/* What the interstitials say: words an article may quote, so only
	 * on a short page. */
	{ SIG_BLOCKED, "cloudflare challenge", SIG_TITLE, NULL, SIG_SHORT, "^just a moment\\b",
	  "https://github.com/firecrawl/firecrawl/issues/1363" },
	{ SIG_BLOCKED, "cloudflare challenge", SIG_TEXT, NULL, SIG_SHORT,
	  "needs to review the security of your connection|checking (?:if the site connection is secure|your browser before accessing)",
	  "https://github.com/firecrawl/firecrawl/issues/1363" },
	{ SIG_BLOCKED, "cloudflare block", SIG_TITLE, NULL, SIG_SHORT, "^attention required! \\| cloudflare$",
	  "https://github.com/Ekultek/WhatWaf/issues/488" },
	{ SIG_BLOCKED, "cloudflare block", SIG_TITLE, NULL, SIG_SHORT, "used cloudflare to restrict access",
	  "https://github.com/VeNoMouS/cloudscraper/issues/100" },
	{ SIG_BLOCKED, "cloudflare block", SIG_TEXT, NULL, SIG_SHORT, "sorry, you have been blocked",
	  "https://github.com/Ekultek/WhatWaf/issues/11" },
	{ SIG_BLOCKED, "cloudflare block", SIG_TEXT, NULL, SIG_SHORT | SIG_REFUSED, "\\berror ?10(?:0[5-9]|1[0-2]|15|20)\\b",
	  "https://developers.cloudflare.com/support/troubleshooting/cloudflare-errors/troubleshooting-cloudflare-1xxx-errors/" },
	{ SIG_BLOCKED, "akamai block", SIG_TEXT, NULL, SIG_SHORT, "reference #\\s*\\d+\\.[0-9a-f]+\\.\\d+\\.[0-9a-f]+",
	  "https://github.com/Ekultek/WhatWaf/issues/1162" },
	{ SIG_BLOCKED, "perimeterx block", SIG_TITLE, NULL, SIG_SHORT, "^access to this page has been denied\\b",
	  "https://github.com/0xjas0/Chegg-Answer-Bot/issues/34" },
	{ SIG_BLOCKED, "perimeterx block", SIG_TEXT, NULL, SIG_SHORT, "press (?:&|and) hold to confirm you are a human",
	  "https://github.com/feder-cr/invisible_playwright/issues/28" },
	{ SIG_BLOCKED, "imperva block", SIG_TEXT, NULL, SIG_SHORT, "incapsula incident id",
	  "https://github.com/ziplokk1/incapsula-cracker-py3/issues/1" },
	{ SIG_BLOCKED, "imperva block", SIG_TITLE, NULL, SIG_SHORT, "^pardon our interruption\\b",
	  "https://github.com/daijro/camoufox/issues/90" },
	{ SIG_BLOCKED, "imperva block", SIG_TEXT, NULL, SIG_SHORT, "made us think you were a bot",
	  "https://github.com/ultrafunkamsterdam/undetected-chromedriver/issues/6" },
	{ SIG_BLOCKED, "sucuri firewall", SIG_TITLE, NULL, SIG_SHORT, "sucuri website firewall",
	  "https://github.com/Ekultek/WhatWaf/issues/1164" },
	{ SIG_BLOCKED, "ddos-guard check", SIG_TITLE, NULL, SIG_SHORT, "^ddos-guard$",
	  "https://github.com/Ekultek/WhatWaf/issues/1005" },
	{ SIG_BLOCKED, "google unusual traffic", SIG_TEXT, NULL, SIG_SHORT,
	  "our systems have detected unusual traffic from your computer network",
	  "https://github.com/benbusby/whoogle-search/issues/42" },
	{ SIG_BLOCKED, "amazon robot check", SIG_TEXT, NULL, SIG_SHORT,
	  "make sure you(?:'|’)re not a robot|enter the characters you see below",
	  "https://github.com/sindresorhus/got/issues/1650" },
	{ SIG_BLOCKED, "access denied", SIG_TITLE, NULL, SIG_SHORT, "^access denied\\b",
	  "https://github.com/Ekultek/WhatWaf/issues/1162" },

	/* Captchas and "verify you are human", in the languages of
	 * Cloudflare's challenge pages. */
	{ SIG_BLOCKED, "captcha", SIG_TITLE, NULL, SIG_SHORT,
	  "^(?:robot check|security check|bot check|human verification|captcha|are you a (?:human|robot)[?]?)$",
	  "https://github.com/adamlwgriffiths/amazon_scraper/issues/29" },
	{ SIG_BLOCKED, "captcha", SIG_TEXT, NULL, SIG_SHORT,
	  "\\b(?:verify|confirm|prove)(?: that)? you(?:'|’| a)re (?:a human|human|not a (?:ro)?bot)\\b"
	  "|\\bi(?:'|’| a)m not a robot\\b|\\bcomplete the (?:security check|captcha)\\b",
	  "https://github.com/firecrawl/firecrawl/issues/1363" },
	{ SIG_BLOCKED, "captcha", SIG_TEXT, NULL, SIG_SHORT,
	  "(?:bestätigen|überprüfen) sie,? (?:dass|ob) sie (?:ein )?mensch sind|ich bin kein roboter"
	  "|(?:vérifi|confirm)\\w* que vous êtes (?:un )?(?:être )?humain|je ne suis pas un robot"
	  "|(?:verifi|confirm)\\w* que (?:eres|es) (?:un )?(?:ser )?humano|no soy un robot"
	  "|(?:verifica|conferma)\\w* (?:di essere|che sei) (?:un )?(?:essere )?umano|non sono un robot"
	  "|(?:verifique|confirme) (?:que|se) (?:você )?é (?:um )?(?:ser )?humano|não sou um robô"
	  "|(?:controleer|bevestig)\\w*,? (?:of|dat) (?:je|u) een mens bent|ik ben geen robot",
	  "https://developers.cloudflare.com/cloudflare-challenges/reference/supported-languages/" },
	{ SIG_BLOCKED, "captcha", SIG_TEXT, NULL, SIG_SHORT,
	  "potwierdź,? że jesteś człowiekiem|nie jestem robotem|подтвердите,? что вы (?:человек|не робот)"
	  "|я не робот|人間であることを確認|ロボットではありません|(?:确认|验证)您是(?:真人|人类)|我不是机器人",
	  "https://developers.cloudflare.com/cloudflare-challenges/reference/supported-languages/" },
	/* A widget on a page that also refused us: a 200 page with one is
	 * often a form (a comment, a contact page), not a wall. */
	{ SIG_BLOCKED, "captcha", SIG_BODY, NULL, SIG_REFUSED, "class=[\"'][^\"']*\\bg-recaptcha\\b",
	  "https://developers.google.com/recaptcha/docs/display" },
	{ SIG_BLOCKED, "captcha", SIG_BODY, NULL, SIG_REFUSED, "class=[\"'][^\"']*\\bh-captcha\\b",
	  "https://docs.hcaptcha.com/" },
	{ SIG_BLOCKED, "captcha", SIG_BODY, NULL, SIG_REFUSED, "class=[\"'][^\"']*\\bcf-turnstile\\b",
	  "https://developers.cloudflare.com/turnstile/get-started/client-side-rendering/" },
	{ SIG_BLOCKED, "rate limited", SIG_TEXT, NULL, SIG_SHORT | SIG_REFUSED, "too many requests|\\brate.?limit",
	  "https://developers.cloudflare.com/rules/custom-errors/reference/error-page-types/" },

	/* Login walls: a sign-in page in place of one that is not. */
	{ SIG_BLOCKED, "login wall", SIG_FINAL_URL, NULL, SIG_UNASKED, LOGIN_URL,
	  "https://github.com/firecrawl/open-lovable/issues/117" },
	{ SIG_BLOCKED, "login wall", SIG_TITLE, NULL, SIG_SHORT | SIG_UNASKED,
	  "^(?:sign ?in|log ?in|anmelden|einloggen|connexion|se connecter|iniciar sesión|accedi|inloggen|zaloguj)\\b",
	  "https://github.com/GetKlai/klai/pull/419" },
	{ SIG_BLOCKED, "login wall", SIG_TEXT, NULL, SIG_SHORT | SIG_UNASKED,
	  "\\b(?:log|sign) ?in to (?:continue|view|see|access|read)\\b"
	  "|\\byou (?:must|need to) (?:be logged in|log ?in|sign ?in)\\b",
	  "https://github.com/zoharbabin/web-researcher-mcp/issues/661" },

	/* Consent walls: the consent page itself, or a page that holds
	 * little but a cookie notice. */
	{ SIG_CONSENT, "consent page", SIG_FINAL_URL, NULL, 0, "^https?://consent\\.(?:google|youtube)\\.[a-z.]+/",
	  "https://github.com/gosom/google-maps-scraper/pull/277" },
	{ SIG_CONSENT, "consent page", SIG_FINAL_URL, NULL, 0, "^https?://(?:guce|consent)\\.(?:yahoo|oath)\\.com/",
	  "https://github.com/SociallyCompute/Global-Consent-Manager/issues/55" },
	{ SIG_CONSENT, "cookie wall", SIG_TEXT, NULL, SIG_BARE,
	  "\\bcookies?\\b.{0,300}\\b(?:accept|agree|allow|consent)|\\b(?:accept|agree to|allow|consent to)\\b.{0,300}\\bcookies?\\b"
	  "|\\bwe and our (?:\\d+ )?partners\\b|store and/or access information on a device",
	  "https://github.com/duckduckgo/autoconsent/blob/main/lib/heuristic-patterns.ts" },
	{ SIG_CONSENT, "cookie wall", SIG_TEXT, NULL, SIG_BARE,
	  "cookies?.{0,300}(?:akzeptier|zustimm|einverstanden|einwilligung|accepteren|akkoord|toestemming)"
	  "|(?:akzeptier|zustimm|einverstanden|accepteren|akkoord).{0,300}cookies?|wir und unsere (?:\\d+ )?partner",
	  "https://github.com/duckduckgo/autoconsent/blob/main/lib/heuristic-patterns.ts" },
	{ SIG_CONSENT, "cookie wall", SIG_TEXT, NULL, SIG_BARE,
	  "cookies?.{0,300}(?:accepter|j'accepte|consentement|acept|consentimiento|accett|consenso|aceit|consentimento|akceptuj|zgod)"
	  "|(?:accepter|j'accepte|acept|accett|aceit|akceptuj).{0,300}cookies?",
	  "https://github.com/duckduckgo/autoconsent/blob/main/lib/heuristic-patterns.ts" },
	{ SIG_CONSENT, "cookie wall", SIG_BODY, NULL, SIG_BARE,
	  "id=[\"']?(?:onetrust-consent-sdk|onetrust-banner-sdk|cybotcookiebotdialog|sp_message_container_|cmpbox\\b"
	  "|truste-consent-track|didomi-host|qc-cmp2-container|usercentrics-root)",
	  "https://github.com/easylist/easylist/tree/master/easylist_cookie" },
};

const size_t sig_count = sizeof sig_table / sizeof sig_table[0];
