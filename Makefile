# Two commands set everything up on a fresh machine: `make demo` and `make test`.
# Each creates (or refreshes, when pyproject.toml changes) the virtual environment in .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test samples model clean help

help:
	@echo "make demo   - referee the bundled clip of game1 (creates .venv on first use)"
	@echo "make test   - run the test suite (creates .venv on first use)"
	@echo "make samples - render the bundled clips and images again (fetches the card designs)"
	@echo "make model  - train the detector, the card classifier and the portrait reader (installs PyTorch, CPU)"
	@echo "make clean  - remove .venv and caches"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The main job: referee the bundled clip of game1 from the camera's view, then compare with its
# truth log; the text scorer's verdict on the same game comes first, for reference.
demo: $(STAMP)
	@echo "== the text scorer on samples/games/game1.sueca"
	$(BIN)/sueca-referee score -g samples/games/game1.sueca
	@echo "== the camera referee on samples/clips/game1.mp4 (the same game; add"
	@echo "   --truth samples/clips/game1.jsonl to compare it with the clip's truth log)"
	$(BIN)/sueca-referee replay samples/clips/game1.mp4

# One worker a core (pytest-xdist). Each test file runs whole in one worker, so that what a file
# makes once serves all its tests, but the end-to-end games are shared out one by one (see
# tests/conftest.py); in the order collected, which leaves the small files of tests/vision last.
# TEST_WORKERS=0 runs the suite in this one process.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder

# The bundled samples: made with the test designs. game1 and game2 are 960x540 so that each stays
# under 5 MB; game1c fits in 5 MB at the studio's (and a webcam's) usual 1280x720, where its
# black suits are read surely enough to prove the revoke (at 960x540 they are not).
STUDIO := $(BIN)/sueca-referee studio
samples: $(STAMP)
	$(STUDIO) clip samples/games/game1.sueca --out samples/clips/game1.mp4 --truth samples/clips/game1.jsonl --seed 7 --size 960x540
	$(STUDIO) clip samples/games/game1c.sueca --out samples/clips/game1c.mp4 --truth samples/clips/game1c.jsonl --seed 10 --size 1280x720
	$(STUDIO) clip samples/games/game2.sueca --out samples/clips/game2.mp4 --truth samples/clips/game2.jsonl --seed 15 --size 960x540
	mkdir -p samples/decks
	$(STUDIO) deck --design simplistic --seed 8 --out samples/decks/simplistic.jpg
	$(STUDIO) deck --design kde-jolly-royal --seed 5 --out samples/decks/kde-jolly-royal.jpg
	$(STUDIO) deck --design lattmann --seed 3 --out samples/decks/lattmann.jpg
	for design in simplistic kde-jolly-royal lattmann; do \
	  $(BIN)/sueca-referee deck --image samples/decks/$$design.jpg --out samples/decks/$$design.npz; done
	rm -rf samples/images
	$(STUDIO) images --designs test --count 200 --kind mixed --out samples/images --seed 7
	$(STUDIO) sheet samples/images --out samples/contact_sheet.jpg --count 16

# Training needs the optional 'train' extra (PyTorch for the CPU); the program never does.
model: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,train]'
	$(BIN)/python -m vision.train detector
	$(BIN)/python -m vision.train classifier
	$(BIN)/python -m vision.train portraits
	$(BIN)/python -m vision.train suits

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
