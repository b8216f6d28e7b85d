import Testing
@testable import LatchHTTP

@Suite struct PrometheusTextTests {
    @Test func rendersHelpTypeAndSortedLabels() {
        let text = PrometheusText.render([
            MetricFamily(name: "latch_outbox_sent_total", help: "Mails sent.\nBy kind.", kind: .counter, samples: [
                MetricSample(labels: ["kind": "confirm_email", "a": "x"], value: 3),
                MetricSample(value: 0.25),
            ]),
        ])
        #expect(text == """
            # HELP latch_outbox_sent_total Mails sent.\\nBy kind.
            # TYPE latch_outbox_sent_total counter
            latch_outbox_sent_total{a="x",kind="confirm_email"} 3
            latch_outbox_sent_total 0.25

            """)
    }

    @Test func escapesLabelValues() {
        let text = PrometheusText.render([
            .init(name: "m", help: "h", kind: .gauge, samples: [MetricSample(labels: ["v": "a\"b\\c\nd"], value: 1)]),
        ])
        #expect(text.contains(#"m{v="a\"b\\c\nd"} 1"#))
    }

    @Test func formatsSpecialValues() {
        #expect(PrometheusText.formatValue(.infinity) == "+Inf")
        #expect(PrometheusText.formatValue(-.infinity) == "-Inf")
        #expect(PrometheusText.formatValue(.nan) == "NaN")
        #expect(PrometheusText.formatValue(12) == "12")
        #expect(PrometheusText.formatValue(0.005) == "0.005")
    }

    @Test func skipsInvalidNamesAndDuplicates() {
        let text = PrometheusText.render([
            .single(name: "bad-name", help: "h", kind: .gauge, value: 1),
            .single(name: "ok_metric", help: "first", kind: .gauge, value: 1),
            .single(name: "ok_metric", help: "second", kind: .gauge, value: 2),
            .init(name: "labelled", help: "h", kind: .gauge, samples: [
                MetricSample(labels: ["0bad": "x"], value: 1), MetricSample(labels: ["good": "y"], value: 2),
            ]),
        ])
        #expect(!text.contains("bad-name"))
        #expect(!text.contains("second"))
        #expect(text.contains("ok_metric 1\n"))
        #expect(!text.contains("0bad"))
        #expect(text.contains(#"labelled{good="y"} 2"#))
    }
}
