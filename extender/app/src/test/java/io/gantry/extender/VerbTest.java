package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VerbTest {
  @Test
  void aPathSegmentNamesItsVerbAndNothingElseDoes() {
    assertThat(Verb.ofPathSegment("bind")).contains(Verb.BIND);
    assertThat(Verb.ofPathSegment("admit")).contains(Verb.ADMIT);
    assertThat(Verb.ofPathSegment("healthz")).isEmpty();
    assertThat(Verb.ofPathSegment("Filter")).isEmpty();
  }

  @Test
  void theListOfVerbsIsTheOneAnUnknownVerbIsAnsweredWith() {
    assertThat(Verb.LIST).isEqualTo("filter, prioritize, preempt, bind, admit");
  }
}
