"""Browser test of the landing pages behind the mailed links, in headless Chromium (Debian's) through Selenium.

Sign up over HTTP, open the link from the real mail, confirm; forgot password, open, refuse a weak password, set a
new one, sign in with it over HTTP; a used link shows its state; a cross-site form post is refused without spending
the token; a change of address is confirmed from the page that shows both addresses masked; a sign-in link's page
sends the reader to the app, with no form, and leaves the record unused. Each check counts once; the last line is
"N passed, N failed".
"""
import base64
import hashlib
import os
import secrets
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from latch_stack import ROOT, LatchStack

SCREENSHOTS = os.path.join(ROOT, ".build", "screenshots")
EMAIL = "browser@example.test"
PASSWORD = "first pass phrase"
NEW_PASSWORD = "second pass phrase"
NEW_EMAIL = "moved@example.test"
SIGN_IN_EMAIL = "passwordless@example.test"


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}".rstrip())
        return condition


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=720,900", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def state(driver):
    return driver.find_element(By.TAG_NAME, "main").get_attribute("data-state")


def wait_for_state(driver, expected, timeout=10):
    try:
        WebDriverWait(driver, timeout).until(lambda d: state(d) == expected)
    except Exception:
        pass
    return state(driver)


def screenshot(driver, name):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SCREENSHOTS, name + ".png"))


def csp_violations(driver):
    return [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]


def confirm_flow(t, stack, driver):
    status, _ = stack.request("POST", "/v1/signup", {"email": EMAIL, "password": PASSWORD})
    t.check("signup answers 202", status == 202, f"got {status}")
    link = stack.wait_for_link(EMAIL, "/confirmAuth")
    token = link.split("token=", 1)[1]
    driver.get(link)
    t.check("confirm page shows the button", state(driver) == "ready", f"state {state(driver)}")
    screenshot(driver, "confirm-ready")
    app = driver.find_element(By.ID, "open-in-app").get_attribute("href")
    t.check("Open in app carries the token", app == f"myapp://confirmAuth?token={token}", app)
    button = driver.find_element(By.CSS_SELECTOR, "button[type=submit]")
    background = button.value_of_css_property("background-color")
    t.check("inline stylesheet allowed by the CSP hash", background in ("rgba(11, 87, 208, 1)", "rgb(11, 87, 208)"),
            background)
    t.check("no CSP violation on the page", not csp_violations(driver), str(csp_violations(driver)))
    button.click()
    t.check("confirming shows success", wait_for_state(driver, "done") == "done", f"state {state(driver)}")
    screenshot(driver, "confirm-done")
    t.check("the URL after posting holds no token", "token" not in driver.current_url, driver.current_url)
    status, _ = stack.request("POST", "/v1/signin", {"email": EMAIL, "password": PASSWORD})
    t.check("sign-in works after confirming", status == 200, f"got {status}")
    driver.get(link)
    t.check("the used confirm link shows the used state", state(driver) == "used", f"state {state(driver)}")
    screenshot(driver, "confirm-used")
    return [token]


def cross_site_post(t, stack, driver, path, token):
    """A form on another origin (a data: URL) posting the token: refused, and the token still works."""
    form = (f'<form method="post" action="{stack.base}{path}"><input name="token" value="{token}">'
            f'<input name="csrf" value="{"A" * 43}"><button id="go">go</button></form>')
    driver.get("data:text/html," + form)
    driver.find_element(By.ID, "go").click()
    t.check("a cross-site form post is refused", wait_for_state(driver, "refused") == "refused",
            f"state {state(driver)}")
    screenshot(driver, "reset-cross-site-refused")


def reset_flow(t, stack, driver):
    status, _ = stack.request("POST", "/v1/password/forgot", {"email": EMAIL})
    t.check("forgot answers 202", status == 202, f"got {status}")
    link = stack.wait_for_link(EMAIL, "/resetPassword")
    token = link.split("token=", 1)[1]
    cross_site_post(t, stack, driver, "/resetPassword", token)
    driver.get(link)
    t.check("reset page shows the form (token not spent)", state(driver) == "ready", f"state {state(driver)}")
    field = driver.find_element(By.ID, "password")
    t.check("the field asks for a new password", field.get_attribute("autocomplete") == "new-password"
            and field.get_attribute("minlength") == "8" and field.get_attribute("maxlength") == "128")
    screenshot(driver, "reset-ready")
    field.send_keys(EMAIL)  # long enough for the browser, refused by the server's policy
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "password-problem"))
    problem = driver.find_element(By.ID, "password-problem").text
    t.check("a weak password shows the form again with the reason", state(driver) == "ready"
            and "email address" in problem, problem)
    screenshot(driver, "reset-weak-password")
    driver.find_element(By.ID, "password").send_keys(NEW_PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    t.check("the new password is accepted", wait_for_state(driver, "done") == "done", f"state {state(driver)}")
    screenshot(driver, "reset-done")
    status, _ = stack.request("POST", "/v1/signin", {"email": EMAIL, "password": NEW_PASSWORD})
    t.check("sign-in works with the new password", status == 200, f"got {status}")
    status, _ = stack.request("POST", "/v1/signin", {"email": EMAIL, "password": PASSWORD})
    t.check("the old password no longer works", status == 401, f"got {status}")
    driver.get(link)
    t.check("the used reset link shows the used state", state(driver) == "used", f"state {state(driver)}")
    screenshot(driver, "reset-used")
    return [token]


def email_change_flow(t, stack, driver):
    status, session = stack.request("POST", "/v1/signin", {"email": EMAIL, "password": NEW_PASSWORD})
    t.check("signed in to change the address", status == 200, f"got {status}")
    status, _ = stack.request("POST", "/v1/email/change", {"new_email": NEW_EMAIL, "password": NEW_PASSWORD},
                              bearer=session["access_token"])
    t.check("the change of address answers 202", status == 202, f"got {status}")
    link = stack.wait_for_link(NEW_EMAIL, "/confirmEmailChange")
    token = link.split("token=", 1)[1]
    driver.get(link)
    t.check("the change page shows the button", state(driver) == "ready", f"state {state(driver)}")
    text = driver.find_element(By.ID, "status").text
    t.check("the page shows both addresses masked, never in full",
            "b•••@example.test" in text and "m•••@example.test" in text and EMAIL not in driver.page_source
            and NEW_EMAIL not in driver.page_source, text)
    t.check("no CSP violation on the change page", not csp_violations(driver), str(csp_violations(driver)))
    screenshot(driver, "email-change-ready")
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    t.check("the change is confirmed", wait_for_state(driver, "done") == "done", f"state {state(driver)}")
    screenshot(driver, "email-change-done")
    status, _ = stack.request("POST", "/v1/signin", {"email": NEW_EMAIL, "password": NEW_PASSWORD})
    t.check("sign-in works with the new address", status == 200, f"got {status}")
    status, _ = stack.request("POST", "/v1/signin", {"email": EMAIL, "password": NEW_PASSWORD})
    t.check("the old address no longer signs in", status == 401, f"got {status}")
    return [token]


def sign_in_flow(t, stack, driver):
    """The page of a real sign-in mail's link: it offers the app and never signs the browser in; the app instance
    that asked (its secret S, sent as SHA-256) then redeems the same link over HTTP, and the page says it is used."""
    status, _ = stack.request("POST", "/v1/signup", {"email": SIGN_IN_EMAIL, "password": PASSWORD})
    t.check("signup for sign-in by mail answers 202", status == 202, f"got {status}")
    secret = secrets.token_bytes(32)
    status, _ = stack.request("POST", "/v1/signin/email", {"email": SIGN_IN_EMAIL, "binding": b64url(sha256(secret))})
    t.check("asking for a sign-in mail answers 202", status == 202, f"got {status}")
    link = stack.wait_for_link(SIGN_IN_EMAIL, "/signIn")
    token = link.split("token=", 1)[1]
    driver.get(link)
    driver.delete_all_cookies()  # the earlier pages' CSRF cookies; this page must set none
    driver.get(link)
    t.check("the sign-in page sends the reader to the app", state(driver) == "ready", f"state {state(driver)}")
    screenshot(driver, "sign-in-ready")
    text = driver.find_element(By.ID, "status").text
    t.check("the page says the link works only on the asking device, else type the code",
            "only on the device" in text and "type the code from the email" in text, text)
    app = driver.find_element(By.ID, "open-in-app")
    t.check("Open in app carries the sign-in link with the custom scheme",
            app.get_attribute("href") == f"myapp://signIn?token={token}", app.get_attribute("href"))
    background = app.value_of_css_property("background-color")
    t.check("Open in app is the page's button", background in ("rgba(11, 87, 208, 1)", "rgb(11, 87, 208)"), background)
    fields = driver.find_elements(By.CSS_SELECTOR, "form, input, button")
    t.check("the sign-in page has no form", not fields, f"{len(fields)} form elements")
    t.check("no CSP violation on the sign-in page", not csp_violations(driver), str(csp_violations(driver)))
    t.check("the browser got no cookie", not driver.get_cookies(), str(driver.get_cookies()))
    driver.get(link)
    t.check("opening the page twice leaves the link usable", state(driver) == "ready", f"state {state(driver)}")
    status, session = stack.request("POST", "/v1/signin/email/verify",
                                    {"token": token, "binding_secret": b64url(secret)})
    t.check("the asking app instance signs in with the same link", status == 200 and "access_token" in session,
            f"got {status}")
    driver.get(link)
    t.check("a used sign-in link shows the used state", state(driver) == "used", f"state {state(driver)}")
    screenshot(driver, "sign-in-used")
    return [token]


def sha256(data):
    return hashlib.sha256(data).digest()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    t = Checks()
    stack = LatchStack(os.environ["DATABASE_URL"], os.environ["LATCH_BIN_DIR"])
    driver = None
    started = time.monotonic()
    try:
        stack.start()
        driver = make_driver()
        tokens = confirm_flow(t, stack, driver)
        tokens += reset_flow(t, stack, driver)
        tokens += email_change_flow(t, stack, driver)
        tokens += sign_in_flow(t, stack, driver)
        log = stack.log()
        t.check("no token in latchd's log", not any(token in log for token in tokens))
    except Exception as error:  # a step that could not go on: counted, and the rest is skipped
        t.check("browser test ran to the end", False, f"{type(error).__name__}: {error}")
        print(stack.log()[-4000:], file=sys.stderr)
    finally:
        if driver is not None:
            driver.quit()
        stack.close()
    print(f"browser test took {time.monotonic() - started:.1f} s; screenshots in {SCREENSHOTS}")
    print(f"{t.passed} passed, {t.failed} failed")
    return 0 if t.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
